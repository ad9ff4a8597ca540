package requests

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// TestSubmitReviewAccept: the whole life of a submit — a review, its acceptance, the accept
// that copies the branch into the target with the request number and description, acceptinfo,
// the cleanup of the branch, the mails.
func TestSubmitReviewAccept(t *testing.T) {
	w := newRequestWorld(t)
	id := w.submit("carol")
	r, _ := w.svc.Request(w.who["bob"], id)
	if r.State.Name != "review" || r.Actions[0].Options.SourceUpdate != "cleanup" || r.Actions[0].Target.Package != "p" {
		t.Fatalf("created %+v", r)
	}
	if err := w.svc.ChangeReviewState(w.who["dave"], id, buildsvc.Reviewer{User: "carol"}, "accepted", ""); errCode(err) != "review_change_state_no_permission" {
		t.Fatalf("dave answers carol's review: %v", err)
	}
	if err := w.svc.ChangeReviewState(w.who["carol"], id, buildsvc.Reviewer{User: "carol"}, "accepted", "fine"); err != nil {
		t.Fatal(err)
	}
	if r, _ = w.svc.Request(w.who["bob"], id); r.State.Name != "new" {
		t.Fatalf("after the last review: %s", r.State.Name)
	}
	clearDirty := func(tx kv.Tx) error {
		names, tickets, err := buildstore.DirtyProjects(tx)
		for i := range names {
			if err := buildstore.ClearDirty(tx, names[i], tickets[i]); err != nil {
				return err
			}
		}
		return err
	}
	if err := w.svc.db.Write(clearDirty); err != nil {
		t.Fatal(err)
	}
	if err := w.svc.ChangeState(w.who["alice"], id, StateChange{NewState: "accepted", Comment: "thanks"}); err != nil {
		t.Fatal(err)
	}
	w.svc.db.View(func(tx kv.Tx) error {
		if names, _, _ := buildstore.DirtyProjects(tx); !slices.Contains(names, "dev") {
			t.Errorf("the accepted submit's target is not scheduled: dirty %v", names)
		}
		return nil
	})
	r, _ = w.svc.Request(w.who["bob"], id)
	info := r.Actions[0].AcceptInfo
	if r.State.Name != "accepted" || info == nil || info.Rev != "2" {
		t.Fatalf("accepted %+v, acceptinfo %+v", r.State, info)
	}
	hist, err := w.svc.History(w.who["alice"], "dev", "p")
	if err != nil {
		t.Fatal(err)
	}
	last := hist[len(hist)-1]
	if last.RequestID != id || last.Comment != "version 2" || last.User != "alice" || last.SrcMD5 != info.SrcMD5 {
		t.Errorf("target revision %+v", last)
	}
	if _, err := w.svc.ProjectMeta(w.who["bob"], "home:bob:branches:dev", false); errCode(err) != "unknown_project" {
		t.Errorf("the emptied branch project: %v", err)
	}
	var mails []outbox.Mail
	w.svc.db.View(func(tx kv.Tx) error { mails, _ = outbox.List(tx, "", 0); return nil })
	var subjects []string
	for _, m := range mails {
		subjects = append(subjects, m.Subject+" → "+strings.Join(m.To, ","))
	}
	got := strings.Join(subjects, "\n")
	for _, want := range []string{"Request 1 created by bob → alice@example.test,carol@example.test", "Request 1 changed to accepted (alice) → bob@example.test"} {
		if !strings.Contains(got, want) {
			t.Errorf("mails:\n%s\nlack %s", got, want)
		}
	}
	diff, err := w.svc.RequestDiff(w.who["dave"], id)
	if err != nil || !strings.Contains(diff, "-Version: 1") || !strings.Contains(diff, "+Version: 2") {
		t.Errorf("diff of the accepted request: %v\n%s", err, diff)
	}
}

// TestDeclinedReviewDeclines: a declined review declines the request; reopening brings the
// review back and the request into review.
func TestDeclinedReviewDeclines(t *testing.T) {
	w := newRequestWorld(t)
	id := w.submit("carol")
	if err := w.svc.ChangeReviewState(w.who["carol"], id, buildsvc.Reviewer{User: "carol"}, "declined", "no"); err != nil {
		t.Fatal(err)
	}
	r, _ := w.svc.Request(w.who["bob"], id)
	if r.State.Name != "declined" {
		t.Fatalf("state %s", r.State.Name)
	}
	if err := w.svc.ChangeState(w.who["bob"], id, StateChange{NewState: "new"}); err != nil {
		t.Fatal(err)
	}
	r, _ = w.svc.Request(w.who["bob"], id)
	if r.State.Name != "review" || r.Reviews[0].State != "new" {
		t.Fatalf("reopened: %s, review %s", r.State.Name, r.Reviews[0].State)
	}
}

// TestRequestRefusals: the bad input of the issue, each with OBS's code.
func TestRequestRefusals(t *testing.T) {
	w := newRequestWorld(t)
	submit := func(sp, sk, tp string) buildstore.Request {
		return buildstore.Request{Actions: []buildstore.RequestAction{{Type: "submit",
			Source: &buildstore.ActionSource{Project: sp, Package: sk}, Target: &buildstore.ActionTarget{Project: tp}}}}
	}
	id := w.submit()
	w.must(w.svc.Branch(w.who["dave"], buildsvc.BranchRequest{Project: "dev", Package: "p"}))
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"source package missing", func() error {
			_, err := w.svc.CreateRequest(w.who["bob"], submit("dev", "nope", "home:bob:branches:dev"), false)
			return err
		}(), "unknown_package"},
		{"source project missing", func() error {
			_, err := w.svc.CreateRequest(w.who["bob"], submit("nope", "p", "dev"), false)
			return err
		}(), "unknown_project"},
		{"target project missing", func() error {
			_, err := w.svc.CreateRequest(w.who["bob"], submit("dev", "p", "nope"), false)
			return err
		}(), "unknown_project"},
		{"no target", func() error {
			_, err := w.svc.CreateRequest(w.who["bob"], buildstore.Request{Actions: []buildstore.RequestAction{{Type: "delete"}}}, false)
			return err
		}(), "validation_failed"},
		{"nothing changes", func() error {
			_, err := w.svc.CreateRequest(w.who["dave"], submit("home:dave:branches:dev", "p", "dev"), false)
			return err
		}(), "missing_action"},
		{"superseded without superseded_by", w.svc.ChangeState(w.who["bob"], id, StateChange{NewState: "superseded"}), "post_request_missing_parameter"},
		{"unknown state", w.svc.ChangeState(w.who["bob"], id, StateChange{NewState: "merged"}), "invalid_state"},
		{"unknown request", w.svc.ChangeState(w.who["bob"], 999, StateChange{NewState: "revoked"}), "not_found"},
		{"review of nobody", w.svc.AddReview(w.who["bob"], id, buildsvc.Reviewer{}, ""), "review_not_specified"},
		{"review by an unknown person", w.svc.AddReview(w.who["bob"], id, buildsvc.Reviewer{User: "zed"}, ""), "not_found"},
		{"review added by a stranger", w.svc.AddReview(w.who["dave"], id, buildsvc.Reviewer{User: "carol"}, ""), "add_review_not_permitted"},
		{"bad priority", w.svc.SetPriority(w.who["bob"], id, "urgent", ""), "invalid_priority"},
		{"accept time by the creator", w.svc.SetAcceptAt(w.who["bob"], id, nil, ""), "post_request_no_permission"},
	}
	for _, c := range cases {
		if got := errCode(c.err); got != c.want {
			t.Errorf("%s: %v (code %s), want %s", c.name, c.err, got, c.want)
		}
	}
}

// TestAcceptAt: the clock accepts a request when its time comes, as the approver.
func TestAcceptAt(t *testing.T) {
	w := newRequestWorld(t)
	id := w.submit()
	at := w.clk.Now().Add(time.Hour)
	if err := w.svc.SetAcceptAt(w.who["alice"], id, &at, ""); err != nil {
		t.Fatal(err)
	}
	if err := w.svc.AcceptDue(w.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if r, _ := w.svc.Request(w.who["bob"], id); r.State.Name != "new" {
		t.Fatalf("accepted early: %s", r.State.Name)
	}
	w.clk.Advance(2 * time.Hour)
	if err := w.svc.AcceptDue(w.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if r, _ := w.svc.Request(w.who["bob"], id); r.State.Name != "accepted" || r.State.Who != "alice" {
		t.Fatalf("at its time: %+v", r.State)
	}
}
