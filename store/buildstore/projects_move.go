package buildstore

import (
	"bytes"
	"encoding/json"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Moving a project (POST /source/<new>?cmd=move&oproject=<old>). The real service renames the
// project's database row, so everything that points at the project by id follows it —
// packages, attributes, comments, tags, messages, ratings, roles, tokens, other projects' build
// paths, project links, devel and release targets — while its backend renames the project's
// source and build-result directories. Requests keep the names they were made with (they store
// names, not ids), and so do the files of source trees (a _link naming the old project).
//
// Here every record of the project moves from under the old name to the new one in one
// transaction: keys that begin with the name are rewritten, index keys that hold it are
// rewritten where it sits, and records that name it are rewritten through the functions that
// keep their indexes (the one place each index is maintained). The published tree is not
// copied: it is dropped with its name index, and the repositories' published digests are
// cleared, so the farm's next pass publishes it afresh under the new name, through the one
// publisher that writes trees and their index — the moved project is marked for the
// scheduler like any changed one. (Packages that build against the project's own binaries
// rebuild once then, "meta change": their dependencies' paths name the project, as the
// build meta of OBS does.)

// projectPrefixed are the buckets whose keys begin with project 0x00 and whose records do not
// name the project: their keys alone move. (Packages, expansions, attributes and download
// counters name it in their records too: see MoveProject.)
var projectPrefixed = []string{
	store.BuildRevisions, store.BuildUploads, store.BuildMetaRevisions, store.BuildPatterns,
	store.BuildActivity, store.BuildRatings,
	store.BuildFarmStatus, store.BuildFarmRepos, store.BuildFarmBinaries, store.BuildFarmFiles,
	store.BuildFarmLogs, store.BuildFarmHistory, store.BuildFarmJobHistory,
}

// MoveProject renames project from to to with everything stored under it (see above). The
// caller has checked that from exists and to does not (a tombstone under to is dropped with
// its contents first, as creating a project over it would). Nothing else may write between the
// checks and the move: it runs in the caller's write transaction.
func MoveProject(tx kv.Tx, from, to string) error {
	p, err := GetProject(tx, from)
	if err != nil {
		return err
	}
	if gone, err := GetDeletedProject(tx, to); err == nil {
		if err := purgeProjectContents(tx, gone.Name); err != nil {
			return err
		}
		if err := PurgeFarm(tx, gone.Name); err != nil {
			return err
		}
		if err := store.Delete(tx, store.BuildProjects, []byte(gone.Name)); err != nil {
			return err
		}
	}
	if err := moveKeys(tx, from, to); err != nil {
		return err
	}
	if err := moveIndexed(tx, from, to); err != nil {
		return err
	}
	if err := moveNamed(tx, from, to); err != nil {
		return err
	}
	if err := movePublished(tx, from, to); err != nil {
		return err
	}
	// The project record last: its new name, its own references to itself, and the other
	// projects' and packages' references to it.
	if err := store.Delete(tx, store.BuildProjects, []byte(from)); err != nil {
		return err
	}
	if dirty, err := store.Bucket(tx, store.BuildFarmDirty); err != nil {
		return err
	} else if err := dirty.Delete([]byte(from)); err != nil {
		return err
	}
	p.Name = to
	repointProject(&p, from, to)
	if err := putProjectRecord(tx, p); err != nil {
		return err
	}
	return repointOthers(tx, from, to)
}

// moveKeys moves the records keyed by the project's name: the key-only buckets, the signing
// key, and the packages, expansions and download counters, whose records name it too.
func moveKeys(tx kv.Tx, from, to string) error {
	prefix := []byte(from + sep)
	for _, bucket := range projectPrefixed {
		if err := renameKeyPart(tx, bucket, prefix, 0, from, to, nil); err != nil {
			return err
		}
	}
	err := renameKeyPart(tx, store.BuildPackages, prefix, 0, from, to, rewrite(func(k *Package) {
		k.Project = to
		if k.Devel != nil && k.Devel.Project == from {
			k.Devel.Project = to
		}
	}))
	if err != nil {
		return err
	}
	err = renameKeyPart(tx, store.BuildExpansions, prefix, 0, from, to, rewrite(func(e *Expansion) {
		if e.Info.Project == from {
			e.Info.Project = to
		}
	}))
	if err != nil {
		return err
	}
	err = renameKeyPart(tx, store.BuildDownloadStats, prefix, 0, from, to, rewrite(func(d *DownloadStat) { d.Project = to }))
	if err != nil {
		return err
	}
	if k, ok, err := GetSignKey(tx, from); err != nil {
		return err
	} else if ok {
		if err := PutSignKey(tx, to, k); err != nil {
			return err
		}
		return DeleteSignKey(tx, from)
	}
	return nil
}

// moveIndexed rewrites the index keys that hold the project's name inside: the link index
// (either side of a link), the role index, and the issue index (both ways).
func moveIndexed(tx kv.Tx, from, to string) error {
	steps := []struct {
		bucket string
		prefix []byte
		pos    int
	}{
		{store.BuildLinks, []byte(from + sep), 0}, // links whose target is in the project
		{store.BuildLinks, nil, 2},                // links the project's packages are
		{store.BuildRoleIndex, nil, 2},            // holder 0x00 role 0x00 project 0x00 package
		{store.BuildIssueIndex, []byte("p" + sep + from + sep), 1},
		{store.BuildIssueIndex, []byte("i" + sep), 3},
	}
	for _, s := range steps {
		if err := renameKeyPart(tx, s.bucket, s.prefix, s.pos, from, to, nil); err != nil {
			return err
		}
	}
	return nil
}

// moveNamed rewrites the records that name the project, each through the functions that keep
// its indexes: attributes, comments, messages, taggings, and tokens bound to its packages.
func moveNamed(tx kv.Tx, from, to string) error {
	var attrs []Attribute
	err := store.Each(tx, store.BuildAttributes, []byte(from+sep), func(_ []byte, a Attribute) (bool, error) {
		attrs = append(attrs, a)
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, a := range attrs {
		if err := deleteAttributeKey(tx, attributeKey(a), a); err != nil {
			return err
		}
		a.Project = to
		if err := PutAttribute(tx, a); err != nil {
			return err
		}
	}
	for _, prefix := range [][]byte{IndexKey(CommentOnProject, from), IndexKey(CommentOnPackage, from)} {
		ids, err := commentIDs(tx, prefix)
		if err != nil {
			return err
		}
		for _, id := range ids {
			c, err := GetComment(tx, id)
			if err != nil {
				return err
			}
			if err := DeleteComment(tx, c); err != nil {
				return err
			}
			c.On.Project = to
			if err := PutComment(tx, c); err != nil {
				return err
			}
		}
	}
	var msgs []Message
	err = store.Each(tx, store.BuildMessages, nil, func(_ []byte, m Message) (bool, error) {
		if m.Project == from {
			msgs = append(msgs, m)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if err := DeleteMessage(tx, m); err != nil {
			return err
		}
		m.Project = to
		if err := PutMessage(tx, m); err != nil {
			return err
		}
	}
	for _, prefix := range [][]byte{tagObjectPrefix(TagOnProject, from), tagObjectPrefix(TagOnPackage, from)} {
		list, err := taggingsUnder(tx, prefix)
		if err != nil {
			return err
		}
		for _, t := range list {
			if err := DeleteTagging(tx, t); err != nil {
				return err
			}
			t.Project = to
			if err := PutTagging(tx, t); err != nil {
				return err
			}
		}
	}
	var tokens []Token
	err = store.Each(tx, store.BuildTokens, nil, func(_ []byte, t Token) (bool, error) {
		if t.Project == from {
			tokens = append(tokens, t)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, t := range tokens {
		t.Project = to
		if err := PutToken(tx, t); err != nil {
			return err
		}
	}
	return nil
}

// movePublished drops the project's published tree with its name index and clears the
// published digests of its repositories (a published repository goes back to finished), so
// the farm's next pass publishes the tree anew under the new name.
func movePublished(tx kv.Tx, from, to string) error {
	prefix := projectPrefix(from)
	if err := unindexPublished(tx, prefix); err != nil {
		return err
	}
	if err := store.DeletePrefix(tx, store.BuildFarmPublished, prefix); err != nil {
		return err
	}
	b, err := store.Bucket(tx, store.BuildFarmRepos)
	if err != nil {
		return err
	}
	var keys [][]byte
	var states []RepoState
	err = store.Each(tx, store.BuildFarmRepos, projectPrefix(to), func(k []byte, r RepoState) (bool, error) {
		keys, states = append(keys, bytes.Clone(k)), append(states, r)
		return true, nil
	})
	if err != nil {
		return err
	}
	for i, r := range states {
		r.PublishedDigest = ""
		if r.Code == "published" || r.Code == "unpublished" {
			r.Code = "finished"
		}
		data, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if err := b.Put(keys[i], data); err != nil {
			return err
		}
	}
	return nil
}

// repointProject turns p's references to project from into references to to: build paths,
// release targets, project links and the devel project. It reports whether any changed.
func repointProject(p *Project, from, to string) bool {
	changed := false
	swap := func(s *string) {
		if *s == from {
			*s, changed = to, true
		}
	}
	for i := range p.Repositories {
		r := &p.Repositories[i]
		for j := range r.Paths {
			swap(&r.Paths[j].Project)
		}
		if r.ReleaseTarget != nil {
			swap(&r.ReleaseTarget.Project)
		}
	}
	for i := range p.Links {
		swap(&p.Links[i].Project)
	}
	swap(&p.Devel)
	return changed
}

// repointOthers points the other projects (tombstones too, so an undelete builds against the
// moved project) and the other projects' packages whose devel project it was at the new name.
func repointOthers(tx kv.Tx, from, to string) error {
	var projects []Project
	err := store.Each(tx, store.BuildProjects, nil, func(_ []byte, p Project) (bool, error) {
		if p.Name != to && repointProject(&p, from, to) {
			projects = append(projects, p)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, p := range projects {
		if err := putProjectRecord(tx, p); err != nil {
			return err
		}
	}
	var keys [][]byte
	var pkgs []Package
	err = store.Each(tx, store.BuildPackages, nil, func(k []byte, p Package) (bool, error) {
		if p.Project != to && p.Devel != nil && p.Devel.Project == from {
			p.Devel.Project = to
			keys, pkgs = append(keys, bytes.Clone(k)), append(pkgs, p)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	for i, p := range pkgs {
		if err := store.Put(tx, store.BuildPackages, keys[i], p); err != nil {
			return err
		}
	}
	return nil
}

// rewrite is a record rewriter for renameKeyPart: decode as T, change, encode.
func rewrite[T any](change func(*T)) func([]byte) ([]byte, error) {
	return func(data []byte) ([]byte, error) {
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		change(&v)
		return json.Marshal(v)
	}
}

// renameKeyPart moves every entry of bucket under prefix (nil: the whole bucket) whose key part
// pos (parts joined by 0x00) is from to the same key with to in that place, its value passed
// through value when set. Binary parts after pos (big-endian numbers may hold 0x00 bytes)
// split and join back unchanged, since only part pos is replaced and every part before it is
// a name.
func renameKeyPart(tx kv.Tx, bucket string, prefix []byte, pos int, from, to string, value func([]byte) ([]byte, error)) error {
	b, err := store.Bucket(tx, bucket)
	if err != nil {
		return err
	}
	type entry struct{ k, v []byte }
	var found []entry
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		parts := bytes.SplitN(k, []byte(sep), pos+2)
		if len(parts) > pos && string(parts[pos]) == from {
			found = append(found, entry{bytes.Clone(k), bytes.Clone(v)})
		}
	}
	for _, e := range found {
		parts := bytes.SplitN(e.k, []byte(sep), pos+2)
		parts[pos] = []byte(to)
		v := e.v
		if value != nil {
			if v, err = value(v); err != nil {
				return err
			}
		}
		if err := b.Delete(e.k); err != nil {
			return err
		}
		if err := b.Put(bytes.Join(parts, []byte(sep)), v); err != nil {
			return err
		}
	}
	return nil
}
