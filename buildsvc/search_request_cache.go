package buildsvc

import (
	"bytes"
	"encoding/xml"
	"sync"

	"github.com/antchfx/xmlquery"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Two shortcuts of the request search, for the listings that return thousands of requests
// (`state/@name='new'` over 100,000 requests spent half its time decoding JSON and most of the
// rest building documents):
//   - decodedRequests keeps recently decoded requests with the stored bytes they came from; a
//     record is reused only while the store holds exactly those bytes, so a change is never
//     missed, and the cache is bounded (maxDecodedRequests, oldest out first);
//   - a predicate that reads only a request's id, creator and state name is evaluated on a
//     document of those three (requestKeyDoc) instead of the whole rendered request.

// maxDecodedRequests bounds decodedRequests: about 5 KB each (the stored bytes and the record),
// so at most some 20 MB.
const maxDecodedRequests = 4096

// decodedRequests is a bounded cache of decoded request records by id.
type decodedRequests struct {
	mu    sync.Mutex
	m     map[uint64]decodedRequest
	order []uint64 // ids in the order they were added, for eviction
}

type decodedRequest struct {
	raw []byte
	r   buildstore.Request
}

// decode returns the request raw holds, from the cache when it holds these very bytes. The
// record is shared: callers must not modify it.
func (c *decodedRequests) decode(id uint64, raw []byte) (buildstore.Request, error) {
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		return e.r, nil
	}
	r, err := buildstore.DecodeRequest(raw)
	if err != nil {
		return r, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[uint64]decodedRequest{}
	}
	if _, had := c.m[id]; !had {
		if len(c.order) >= maxDecodedRequests {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.order = append(c.order, id)
	}
	c.m[id] = decodedRequest{raw: bytes.Clone(raw), r: r}
	return r, nil
}

// requestKeyKeys are the keys requestKeyDoc holds.
var requestKeyKeys = []string{"@id", "@creator", "state/@name"}

// requestKeys is the document of a request's id, creator and state name.
type requestKeys struct {
	XMLName xml.Name `xml:"request"`
	ID      uint64   `xml:"id,attr"`
	Creator string   `xml:"creator,attr"`
	State   struct {
		Name string `xml:"name,attr"`
	} `xml:"state"`
}

// requestKeyDoc is r's document of requestKeyKeys.
func requestKeyDoc(r buildstore.Request) (*xmlquery.Node, error) {
	d := requestKeys{ID: r.ID, Creator: r.Creator}
	d.State.Name = r.State.Name
	return xpath.Document(d)
}
