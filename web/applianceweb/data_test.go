package applianceweb

import (
	"bufio"
	"bytes"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/store"
)

// goneClient is the connection of a client that went away: every write fails.
type goneClient struct{}

func (goneClient) Write([]byte) (int, error) { return 0, errors.New("connection reset by peer") }

// TestSnapshotStreamOwnsItsRequestID: the snapshot is streamed after the handler has returned,
// and a client that went away frees the request to the next one while the stream still runs;
// its failure must be logged with this request's id, not what the response header it was read
// from holds by then.
func TestSnapshotStreamOwnsItsRequestID(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, nil))

	header := []byte("4f2a9c1e-1b")
	stream := snapshotStream(appliancesvc.New(db, appliancesvc.Options{}), log, unsafe.String(&header[0], len(header)))
	copy(header, "77777777-zz") // the next request's X-Request-ID
	stream(bufio.NewWriter(goneClient{}))

	if !strings.Contains(logged.String(), "request_id=4f2a9c1e-1b ") {
		t.Fatalf("the failure is not logged with the request's id:\n%s", logged.String())
	}
}
