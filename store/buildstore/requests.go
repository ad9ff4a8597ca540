package buildstore

import (
	"bytes"
	"encoding/binary"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Request states (request.rng's request-states); a review's state is one of them too.
const (
	RequestNew        = "new"
	RequestReview     = "review"
	RequestAccepted   = "accepted"
	RequestDeclined   = "declined"
	RequestRevoked    = "revoked"
	RequestSuperseded = "superseded"
	RequestDeleted    = "deleted"
	// RequestObsoleted is a review's state when the request it belongs to ended another way.
	RequestObsoleted = "obsoleted"
)

// ActionTypes are the request action types of the 2.7 API, in request.rng's order.
var ActionTypes = []string{"submit", "delete", "change_devel", "add_role", "set_bugowner",
	"maintenance_incident", "maintenance_release", "group"}

// Request is a change request: actions on target projects and packages, its state, the reviews
// that must pass before it may be accepted, and its history.
type Request struct {
	ID          uint64          `json:"id"`
	Creator     string          `json:"creator"`
	Actions     []RequestAction `json:"actions"`
	State       RequestState    `json:"state"`
	Description string          `json:"description,omitempty"`
	// Priority is low, important or critical; "" is moderate, which the document leaves out.
	Priority string          `json:"priority,omitempty"`
	Reviews  []Review        `json:"reviews,omitempty"`
	History  []HistoryRecord `json:"history,omitempty"`
	// AcceptAt is when the clock accepts the request on its own, if it may be accepted then.
	AcceptAt *time.Time `json:"accept_at,omitempty"`
	// Updated is the last change's time.
	Updated time.Time `json:"updated"`
}

// RequestState is a request's current state.
type RequestState struct {
	Name    string    `json:"name"`
	Who     string    `json:"who"`
	When    time.Time `json:"when"`
	Created time.Time `json:"created"`
	Comment string    `json:"comment,omitempty"`
	// SupersededBy is the request that replaced this one (state superseded).
	SupersededBy uint64 `json:"superseded_by,omitempty"`
	// Approver is who approved the request for the accept_at time.
	Approver string `json:"approver,omitempty"`
}

// RequestAction is one action of a request.
type RequestAction struct {
	Type    string        `json:"type"`
	Source  *ActionSource `json:"source,omitempty"`
	Target  *ActionTarget `json:"target,omitempty"`
	Person  *ActionRole   `json:"person,omitempty"`
	Group   *ActionRole   `json:"group,omitempty"`
	Options ActionOptions `json:"options,omitempty"`
	// Grouped are the requests a group action holds.
	Grouped []uint64 `json:"grouped,omitempty"`
	// AcceptInfo is what an accepted submit wrote.
	AcceptInfo *AcceptInfo `json:"acceptinfo,omitempty"`
}

// ActionSource is an action's source package (or project) at a revision.
type ActionSource struct {
	Project string `json:"project"`
	Package string `json:"package,omitempty"`
	Rev     string `json:"rev,omitempty"`
}

// ActionTarget is what an action changes.
type ActionTarget struct {
	Project        string `json:"project"`
	Package        string `json:"package,omitempty"`
	ReleaseProject string `json:"releaseproject,omitempty"`
	Repository     string `json:"repository,omitempty"`
}

// ActionRole is the person or group an add_role or set_bugowner action names.
type ActionRole struct {
	Name string `json:"name"`
	Role string `json:"role,omitempty"`
}

// ActionOptions are a submit's options.
type ActionOptions struct {
	// SourceUpdate is update, noupdate or cleanup ("": update).
	SourceUpdate    string `json:"sourceupdate,omitempty"`
	UpdateLink      bool   `json:"updatelink,omitempty"`
	MakeOriginOlder bool   `json:"makeoriginolder,omitempty"`
}

// AcceptInfo records what accepting a submit wrote: the target's new revision and the source
// tree it came from.
type AcceptInfo struct {
	Rev      string `json:"rev"`
	SrcMD5   string `json:"srcmd5"`
	OSrcMD5  string `json:"osrcmd5"`
	XSrcMD5  string `json:"xsrcmd5,omitempty"`
	OXSrcMD5 string `json:"oxsrcmd5,omitempty"`
	OProject string `json:"oproject,omitempty"`
	OPackage string `json:"opackage,omitempty"`
}

// Review is one review a request waits for: by a person, a group, or the maintainers of a
// project or package.
type Review struct {
	State     string          `json:"state"`
	ByUser    string          `json:"by_user,omitempty"`
	ByGroup   string          `json:"by_group,omitempty"`
	ByProject string          `json:"by_project,omitempty"`
	ByPackage string          `json:"by_package,omitempty"`
	Who       string          `json:"who,omitempty"`
	When      time.Time       `json:"when"`
	Comment   string          `json:"comment,omitempty"`
	History   []HistoryRecord `json:"history,omitempty"`
}

// HistoryRecord is one change of a request or review: who, when, what and why.
type HistoryRecord struct {
	Who         string    `json:"who"`
	When        time.Time `json:"when"`
	Description string    `json:"description"`
	Comment     string    `json:"comment,omitempty"`
}

// Open reports whether the request still waits for a decision (new or review).
func (r Request) Open() bool { return r.State.Name == RequestNew || r.State.Name == RequestReview }

// Index kinds of BuildRequestIndex: each names what the value after it is.
const (
	IndexCreator       = "creator"        // login
	IndexState         = "state"          // state name
	IndexStateWho      = "state_who"      // login of the state's last change
	IndexHistoryWho    = "history_who"    // login of a history entry
	IndexTarget        = "target"         // project
	IndexTargetPackage = "target_package" // project 0x00 package
	IndexSource        = "source"         // project
	IndexSourcePackage = "source_package" // project 0x00 package
	IndexReviewUser    = "review_user"    // login
	IndexReviewGroup   = "review_group"   // group title
	IndexReviewProject = "review_project" // project
	IndexReviewPackage = "review_package" // project 0x00 package
	IndexType          = "type"           // action type
	IndexAcceptAt      = "accept_at"      // UTC time as 20060102T150405, for open requests only
)

// acceptAtLayout writes accept times in the index so that key order is time order.
const acceptAtLayout = "20060102T150405"

// foldedKinds are the request index kinds whose values OBS's database compares ignoring case
// (the creator, state, action projects and packages, reviewers: *_ci columns; an action's
// type is utf8_bin): IndexKey keeps their values in lower case, so that a search or a
// collection asking in any case reads the same entries.
var foldedKinds = map[string]bool{IndexCreator: true, IndexState: true, IndexStateWho: true, IndexTarget: true,
	IndexTargetPackage: true, IndexSource: true, IndexSourcePackage: true, IndexReviewUser: true,
	IndexReviewGroup: true, IndexReviewProject: true, IndexReviewPackage: true}

// IndexKey is the key prefix of kind with value (values of two parts are joined with 0x00),
// in lower case for foldedKinds.
func IndexKey(kind string, value ...string) []byte {
	fold := foldedKinds[kind]
	k := append([]byte(kind), 0)
	for i, v := range value {
		if i > 0 {
			k = append(k, 0)
		}
		if fold {
			v = strings.ToLower(v)
		}
		k = append(k, v...)
	}
	return append(k, 0)
}

// requestKeys lists the index keys of r: every way a collection finds it.
func requestKeys(r Request) [][]byte {
	var keys [][]byte
	add := func(kind string, value ...string) {
		k := binary.BigEndian.AppendUint64(IndexKey(kind, value...), r.ID)
		for _, have := range keys {
			if bytes.Equal(have, k) {
				return
			}
		}
		keys = append(keys, k)
	}
	add(IndexCreator, r.Creator)
	add(IndexState, r.State.Name)
	add(IndexStateWho, r.State.Who)
	for _, h := range r.History {
		add(IndexHistoryWho, h.Who)
	}
	for _, a := range r.Actions {
		add(IndexType, a.Type)
		if a.Target != nil {
			add(IndexTarget, a.Target.Project)
			add(IndexTargetPackage, a.Target.Project, a.Target.Package)
		}
		if a.Source != nil {
			add(IndexSource, a.Source.Project)
			add(IndexSourcePackage, a.Source.Project, a.Source.Package)
		}
	}
	if r.AcceptAt != nil && r.Open() {
		add(IndexAcceptAt, r.AcceptAt.UTC().Format(acceptAtLayout))
	}
	for _, v := range r.Reviews {
		switch {
		case v.ByUser != "":
			add(IndexReviewUser, v.ByUser)
		case v.ByGroup != "":
			add(IndexReviewGroup, v.ByGroup)
		case v.ByPackage != "":
			add(IndexReviewPackage, v.ByProject, v.ByPackage)
		case v.ByProject != "":
			add(IndexReviewProject, v.ByProject)
		}
	}
	return keys
}

func init() { store.RegisterIndexBuilder(store.BuildRequestIndex, rebuildRequestIndex) }

// rebuildRequestIndex fills the empty request index from every stored request (the migration
// that folded its values' case). A file without requests has nothing to index.
func rebuildRequestIndex(tx kv.Tx) error {
	if tx.Bucket([]byte(store.BuildRequests)) == nil {
		return nil
	}
	idx := tx.Bucket([]byte(store.BuildRequestIndex))
	return store.Each(tx, store.BuildRequests, nil, func(_ []byte, r Request) (bool, error) {
		for _, k := range requestKeys(r) {
			if err := idx.Put(k, nil); err != nil {
				return false, err
			}
		}
		return true, nil
	})
}

// GetRequest reads request id; ErrNotFound when there is none.
func GetRequest(tx kv.Tx, id uint64) (Request, error) {
	return store.Get[Request](tx, store.BuildRequests, store.Itob(id))
}

// NewRequestID takes the next request number.
func NewRequestID(tx kv.Tx) (uint64, error) { return store.NextID(tx, store.BuildRequests) }

// PutRequest stores r (its ID set) and moves its index entries from what the stored version
// held to what r holds, in the same transaction.
func PutRequest(tx kv.Tx, r Request) error {
	idx, err := store.Bucket(tx, store.BuildRequestIndex)
	if err != nil {
		return err
	}
	if old, err := GetRequest(tx, r.ID); err == nil {
		for _, k := range requestKeys(old) {
			if err := idx.Delete(k); err != nil {
				return err
			}
		}
	}
	for _, k := range requestKeys(r) {
		if err := idx.Put(k, nil); err != nil {
			return err
		}
	}
	return store.Put(tx, store.BuildRequests, store.Itob(r.ID), r)
}

// RequestIDs lists the ids under one index key prefix (IndexKey), ascending.
func RequestIDs(tx kv.Tx, prefix []byte) ([]uint64, error) {
	b, err := store.Bucket(tx, store.BuildRequestIndex)
	if err != nil {
		return nil, err
	}
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) == len(prefix)+8 {
			ids = append(ids, binary.BigEndian.Uint64(k[len(prefix):]))
		}
	}
	return ids, nil
}

// DueRequests lists the open requests whose accept time is not after now, earliest first.
func DueRequests(tx kv.Tx, now time.Time) ([]uint64, error) {
	b, err := store.Bucket(tx, store.BuildRequestIndex)
	if err != nil {
		return nil, err
	}
	prefix := []byte(IndexAcceptAt + "\x00")
	limit := IndexKey(IndexAcceptAt, now.UTC().Format(acceptAtLayout))
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && bytes.Compare(k[:min(len(k), len(limit))], limit) <= 0; k, _ = c.Next() {
		if len(k) == len(limit)+8 {
			ids = append(ids, binary.BigEndian.Uint64(k[len(limit):]))
		}
	}
	return ids, nil
}

// EachRequest calls fn with every request in id order until it returns false or an error.
func EachRequest(tx kv.Tx, fn func(Request) (bool, error)) error {
	return store.Each(tx, store.BuildRequests, nil, func(_ []byte, r Request) (bool, error) { return fn(r) })
}
