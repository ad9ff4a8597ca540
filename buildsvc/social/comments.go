package social

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Comments on projects, packages and requests (GET and POST /comments/project/P,
// /comments/package/P/K, /comments/request/N; DELETE /comment/N), as the 2.7-era service keeps
// them (CommentsController and the Comment models):
//   - whoever may see the object reads its comments, in the order they were written; a hidden
//     project is 404 unknown_project as everywhere, a request whose target project is hidden
//     from the caller is as unknown as a missing one;
//   - any signed-in person comments on an existing object; the text is the raw body, a reply
//     names its parent, which must be a comment on the same object;
//   - the author, Admin, or whoever may change the object (a maintainer of the project, of the
//     package or its project, of every request target) deletes a comment; so may anyone a
//     comment already blanked. A comment with replies is not removed but blanked — its text
//     becomes "This comment has been deleted" and its author _nobody_ — so the replies keep
//     their place; one without is removed;
//   - each new comment is mailed to the object's people (comments_rules.go).
//
// Simplified: the service's validation messages are kept, but a parent is only checked to be
// on the same object (the service later refused a parent on another object the same way); the
// text is bounded at 64 KiB (the service's text column) and must be UTF-8; the comments of a
// project or package go with it when it is deleted (store/buildstore), as the service destroys
// them with the object.

// CommentObject names what a comment is on: kind project, package or request, with the keys
// (Request is the number as the URL has it).
type CommentObject = buildstore.CommentObject

// MaxCommentSize is the longest comment text taken, in bytes.
const MaxCommentSize = 64 << 10

// What a comment deleted while it has replies becomes.
const (
	deletedCommentBody = "This comment has been deleted"
	nobodyLogin        = "_nobody_"
)

// CommentList is the comments on one object; On names it as the service does (a request's
// number in its canonical form).
type CommentList struct {
	On       CommentObject
	Comments []buildstore.Comment
}

// Comments lists the comments on obj for who.
func (s *Service) Comments(who buildstore.Person, obj CommentObject) (CommentList, error) {
	var list CommentList
	err := s.Store().View(func(tx kv.Tx) error {
		t, err := resolveCommented(tx, who, obj)
		if err != nil {
			return err
		}
		list.On = t.obj
		list.Comments, err = buildstore.Comments(tx, t.obj)
		return err
	})
	return list, err
}

// AddComment writes who's comment text on obj, a reply to comment parent unless parent is "",
// and mails it to the object's people.
func (s *Service) AddComment(who buildstore.Person, obj CommentObject, parent, text string) (buildstore.Comment, error) {
	var c buildstore.Comment
	err := s.Store().Write(func(tx kv.Tx) error {
		var err error
		if c, err = AddCommentTx(tx, who, obj, parent, text, s.Clock().Now()); err != nil {
			return err
		}
		t, err := resolveCommented(tx, who, c.On)
		if err != nil {
			return err
		}
		return mailComment(tx, t, c)
	})
	return c, err
}

// AddCommentTx is AddComment at now inside the caller's transaction, without the mail (the
// fixtures write the demo comments in theirs: the world's past, not news, so a fresh
// appliance's outbox starts empty).
func AddCommentTx(tx kv.Tx, who buildstore.Person, obj CommentObject, parent, text string, now time.Time) (buildstore.Comment, error) {
	t, err := resolveCommented(tx, who, obj)
	if err != nil {
		return buildstore.Comment{}, err
	}
	if err := checkCommentText(text); err != nil {
		return buildstore.Comment{}, err
	}
	c := buildstore.Comment{On: t.obj, Who: who.Login, When: now.UTC(), Body: text}
	if parent != "" {
		if c.Parent, err = parentOn(tx, t.obj, parent); err != nil {
			return buildstore.Comment{}, err
		}
	}
	if c.ID, err = buildstore.NewCommentID(tx); err != nil {
		return buildstore.Comment{}, err
	}
	return c, buildstore.PutComment(tx, c)
}

// DeleteComment deletes comment id for who: removed, or blanked while it has replies.
func (s *Service) DeleteComment(who buildstore.Person, id string) error {
	return s.Store().Write(func(tx kv.Tx) error {
		n, err := strconv.ParseUint(id, 10, 64)
		if err != nil {
			return commentNotFound(id)
		}
		c, err := buildstore.GetComment(tx, n)
		if err != nil {
			return err
		}
		t, err := resolveCommented(tx, who, c.On)
		if err != nil {
			return commentNotFound(id) // on something who cannot see: as if it did not exist
		}
		if who.Login != c.Who && c.Who != nobodyLogin && !moderates(tx, who, t) {
			return buildsvc.Forbidden("no_permission", "No permission to delete %d", n)
		}
		siblings, err := buildstore.Comments(tx, c.On)
		if err != nil {
			return err
		}
		for _, r := range siblings {
			if r.Parent == c.ID {
				c.Body, c.Who = deletedCommentBody, nobodyLogin
				return buildstore.PutComment(tx, c)
			}
		}
		return buildstore.DeleteComment(tx, c)
	})
}

// checkCommentText refuses what the service's validation refuses (a blank text), and what it
// could not store: more than MaxCommentSize bytes, or bytes that are not UTF-8.
func checkCommentText(text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return buildsvc.BadRequest("invalid_record", "Body can't be blank")
	case len(text) > MaxCommentSize:
		return buildsvc.BadRequest("invalid_record", "Body is too long (maximum is %d bytes)", MaxCommentSize)
	case !utf8.ValidString(text):
		return buildsvc.BadRequest("invalid_record", "Body is not valid UTF-8")
	}
	return nil
}

// parentOn reads parent_id, which must name a comment on obj.
func parentOn(tx kv.Tx, obj CommentObject, parent string) (uint64, error) {
	n, err := strconv.ParseUint(parent, 10, 64)
	if err == nil {
		if p, err := buildstore.GetComment(tx, n); err == nil && p.On == obj {
			return n, nil
		}
	}
	return 0, buildsvc.BadRequest("invalid_record", "Parent belongs to different object")
}

func commentNotFound(id string) error {
	return fault.NotFound("not_found", "Couldn't find Comment with id %s", id)
}
