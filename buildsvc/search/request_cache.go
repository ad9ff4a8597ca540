package search

import (
	"encoding/xml"

	"github.com/antchfx/xmlquery"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Two shortcuts of the request search, for the listings that return thousands of requests
// (`state/@name='new'` over 100,000 requests spent half its time decoding JSON and most of the
// rest building documents):
//   - recently decoded requests are kept (Service.requests, decoded.go), at most
//     maxDecodedRequests;
//   - a predicate that reads only a request's id, creator and state name is evaluated on a
//     document of those three (requestKeyDoc) instead of the whole rendered request.

// maxDecodedRequests bounds the decoded requests kept: about 5 KB each (the stored bytes and the
// record), so at most some 20 MB.
const maxDecodedRequests = 4096

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
