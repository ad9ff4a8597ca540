package social

import (
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Tags (GET /source/P[/K]/_tags, /tag/<tags>/_projects|_packages|_all, /user/U/tags/…), as the
// 2.7-era service keeps them (TagController, the Tag, Tagging and Tagcloud models): a tagging
// is one user's tag on one project or package.
//   - Whoever may see an object reads all its tags (every user's, each name once) and any
//     user's tags on it; only the user himself writes his: a PUT of <tags><tag name=…/>…</tags>
//     on /user/U/tags/P[/K] replaces U's tags on that object. Not even Admin writes another
//     user's tags: the service compares the user of the URL with the caller and nothing else.
//   - /tag/A::B/… lists the objects carrying every tag named (each by any user); a name no
//     tagging carries is 404 tag_not_found "Tag A not found".
//   - A tag name must not hold ? or : (the service's validation, "no ? and : allowed!"); a PUT
//     with such a name is 400 tagcreation_error naming the rejected tags.
//   - Taggings on objects the caller may not see (a project with <access><disable/>, its
//     packages) do not exist for him: not listed, not counted in a cloud, and a tag only they
//     carry is unknown to him. They die with their object (store/buildstore's delete hooks).
//
// Simplified or decided where the service was loose:
//   - a PUT with a refused name changes nothing (the service stored the valid names, dropped
//     the user's others, and then answered 400); the names must also be non-empty, at most
//     MaxTagLength characters (the service's column) and free of control characters, which the
//     service's database would have mangled;
//   - the service keeps a tag row after its last tagging is gone; here a tag exists while some
//     tagging carries it, so an unused tag is 404 on /tag/…;
//   - names are compared exactly (the service's MySQL collation folded case, so "Foo" and
//     "foo" were one tag); lists order names case-insensitively, ties by the exact name;
//   - objects are listed projects by name, packages by project then name (the service grouped
//     packages by name alone, so two projects' packages of one name showed once);
//   - a title is written as it is (the service escaped it twice);
//   - the service's blacklist of tag names is empty out of the box; there is none here;
//   - PUT, POST and DELETE on …/_tags are refused (405) rather than taken as a source file.

// MaxTagLength is the longest tag name taken, in characters.
const MaxTagLength = 255

// TagList is the <tags> document: the tags on one object (of one user when User is set).
type TagList struct {
	Project, Package, Title, User string
	Tags                          []string
}

// TaggedObject is one project (Package "") or package of a collection, with its tags.
type TaggedObject struct {
	Project, Package, Title string
	Tags                    []string
}

// TaggedObjects is the <collection> document: the objects carrying Tag (as the URL has it), or
// those User tagged, with each object's tags (every user's for Tag, User's own for User).
type TaggedObjects struct {
	Tag, User          string
	Projects, Packages []TaggedObject
}

// Which objects a /tag/… route lists.
const (
	TaggedProjects = "projects"
	TaggedPackages = "packages"
	TaggedAll      = "all"
)

// ObjectTags lists every user's tags on project (pkg "") or package project/pkg.
func (s *Service) ObjectTags(who buildstore.Person, project, pkg string) (TagList, error) {
	var l TagList
	err := s.Store().View(func(tx kv.Tx) error {
		var err error
		if l, err = taggedObject(tx, who, project, pkg); err != nil {
			return err
		}
		list, err := buildstore.TaggingsOn(tx, project, pkg)
		l.Tags = tagNames(list)
		return err
	})
	return l, err
}

// UserObjectTags lists user's tags on project (pkg "") or package project/pkg.
func (s *Service) UserObjectTags(who buildstore.Person, user, project, pkg string) (TagList, error) {
	var l TagList
	err := s.Store().View(func(tx kv.Tx) error {
		if _, err := buildstore.GetPerson(tx, user); err != nil {
			return err
		}
		var err error
		if l, err = taggedObject(tx, who, project, pkg); err != nil {
			return err
		}
		l.User = user
		list, err := buildstore.TaggingsOnBy(tx, user, project, pkg)
		l.Tags = tagNames(list)
		return err
	})
	return l, err
}

// SetUserTags replaces user's tags on project (pkg "") or package project/pkg with names (a
// name given twice counts once); only user himself may. A refused name refuses the whole
// list: nothing changes.
func (s *Service) SetUserTags(who buildstore.Person, user, project, pkg string, names []string) error {
	return s.Store().Write(func(tx kv.Tx) error { return SetUserTagsTx(tx, who, user, project, pkg, names, s.Clock().Now()) })
}

// SetUserTagsTx is SetUserTags at now inside the caller's transaction (the fixtures tag the
// demo projects and packages in theirs).
func SetUserTagsTx(tx kv.Tx, who buildstore.Person, user, project, pkg string, names []string, now time.Time) error {
	if _, err := buildstore.GetPerson(tx, user); err != nil {
		return err
	}
	if who.Login != user {
		return buildsvc.Forbidden("permission_denied", "Editing tags for another user than the logged on user is not allowed.")
	}
	if _, err := taggedObject(tx, who, project, pkg); err != nil {
		return err
	}
	if err := checkTagNames(names); err != nil {
		return err
	}
	names = slices.Compact(slices.Sorted(slices.Values(names)))
	old, err := buildstore.TaggingsOnBy(tx, user, project, pkg)
	if err != nil {
		return err
	}
	for _, t := range old {
		if !slices.Contains(names, t.Tag) {
			if err := buildstore.DeleteTagging(tx, t); err != nil {
				return err
			}
		}
	}
	for _, n := range names {
		if slices.ContainsFunc(old, func(t buildstore.Tagging) bool { return t.Tag == n }) {
			continue
		}
		if err := buildstore.PutTagging(tx, buildstore.Tagging{Tag: n, User: user, Project: project, Package: pkg, Created: now.UTC()}); err != nil {
			return err
		}
	}
	return nil
}

// ObjectsByTag lists the objects of kind (TaggedProjects, TaggedPackages, TaggedAll) that
// carry every tag of tags, names joined with "::".
func (s *Service) ObjectsByTag(who buildstore.Person, tags, kind string) (TaggedObjects, error) {
	out := TaggedObjects{Tag: tags}
	err := s.Store().View(func(tx kv.Tx) error {
		var common map[tagObj]bool
		for _, name := range strings.Split(tags, "::") {
			list, err := buildstore.TaggingsWithTag(tx, name)
			if err != nil {
				return err
			}
			visible := visibleTaggings(tx, who, list)
			if len(visible) == 0 {
				return fault.NotFound("tag_not_found", "Tag %s not found", name)
			}
			carry := map[tagObj]bool{}
			for _, t := range visible {
				if common == nil || common[objOf(t)] {
					carry[objOf(t)] = true
				}
			}
			common = carry
		}
		var err error
		out.Projects, out.Packages, err = collect(tx, common, kind, func(o tagObj) ([]buildstore.Tagging, error) {
			return buildstore.TaggingsOn(tx, o.project, o.pkg)
		})
		return err
	})
	return out, err
}

// ObjectsTaggedBy lists the objects of kind (TaggedProjects or TaggedPackages) user tagged,
// each with user's tags on it.
func (s *Service) ObjectsTaggedBy(who buildstore.Person, user, kind string) (TaggedObjects, error) {
	out := TaggedObjects{User: user}
	err := s.Store().View(func(tx kv.Tx) error {
		if _, err := buildstore.GetPerson(tx, user); err != nil {
			return err
		}
		list, err := buildstore.TaggingsBy(tx, user)
		if err != nil {
			return err
		}
		objs := map[tagObj]bool{}
		for _, t := range visibleTaggings(tx, who, list) {
			objs[objOf(t)] = true
		}
		out.Projects, out.Packages, err = collect(tx, objs, kind, func(o tagObj) ([]buildstore.Tagging, error) {
			return buildstore.TaggingsOnBy(tx, user, o.project, o.pkg)
		})
		return err
	})
	return out, err
}

// tagObj names a tagged object: a project (pkg "") or a package.
type tagObj struct{ project, pkg string }

func objOf(t buildstore.Tagging) tagObj { return tagObj{t.Project, t.Package} }

// collect renders objs of kind, ordered, each with the names of the taggings tagsOf reads.
func collect(tx kv.Tx, objs map[tagObj]bool, kind string, tagsOf func(tagObj) ([]buildstore.Tagging, error)) (projects, packages []TaggedObject, err error) {
	keys := make([]tagObj, 0, len(objs))
	for o := range objs {
		keys = append(keys, o)
	}
	slices.SortFunc(keys, func(a, b tagObj) int {
		if c := strings.Compare(a.project, b.project); c != 0 {
			return c
		}
		return strings.Compare(a.pkg, b.pkg)
	})
	for _, o := range keys {
		isPkg := o.pkg != ""
		if isPkg && kind == TaggedProjects || !isPkg && kind == TaggedPackages {
			continue
		}
		item := TaggedObject{Project: o.project, Package: o.pkg}
		if isPkg {
			k, err := buildstore.GetPackage(tx, o.project, o.pkg)
			if err != nil {
				continue // gone without its taggings: not listed
			}
			item.Title = k.Title
		} else {
			p, err := buildstore.GetProject(tx, o.project)
			if err != nil {
				continue
			}
			item.Title = p.Title
		}
		list, err := tagsOf(o)
		if err != nil {
			return nil, nil, err
		}
		item.Tags = tagNames(list)
		if isPkg {
			packages = append(packages, item)
		} else {
			projects = append(projects, item)
		}
	}
	return projects, packages, nil
}

// taggedObject reads the object a tags route names for who: 404 unknown_project (missing or
// hidden) or unknown_package; its title goes into the document.
func taggedObject(tx kv.Tx, who buildstore.Person, project, pkg string) (TagList, error) {
	l := TagList{Project: project, Package: pkg}
	if err := buildsvc.VisibleProject(tx, who, project); err != nil {
		return l, err
	}
	if pkg == "" {
		p, err := buildstore.GetProject(tx, project)
		l.Title = p.Title
		return l, buildsvc.NotFoundAs(err, "unknown_project")
	}
	_, k, err := buildsvc.LookupPackage(tx, project, pkg)
	l.Title = k.Title
	return l, err
}

// visibleTaggings keeps the taggings on objects who may see.
func visibleTaggings(tx kv.Tx, who buildstore.Person, list []buildstore.Tagging) []buildstore.Tagging {
	return slices.DeleteFunc(slices.Clone(list), func(t buildstore.Tagging) bool { return buildsvc.ProjectHiddenFrom(tx, who, t.Project) })
}

// tagNames is the distinct tag names of list, in tag order.
func tagNames(list []buildstore.Tagging) []string {
	var names []string
	for _, t := range list {
		names = append(names, t.Tag)
	}
	slices.SortFunc(names, compareTags)
	return slices.Compact(names)
}

// compareTags orders tag names case-insensitively, ties by the exact name.
func compareTags(a, b string) int {
	if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
