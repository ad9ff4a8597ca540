package cloudsvc

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestSettingsWriteIsSmall: a settings write stores exactly what decoding the account, changing
// it and encoding it stores (the account's bytes as json.Marshal writes them), and its event as
// RecordEvent would; and once the account's two states have been seen it neither decodes nor
// encodes the account (issue 13: 64 concurrent settings writes reached 0.39 of raw bbolt Batch,
// each decoding and encoding the account and its event inside the group commit's transaction).
func TestSettingsWriteIsSmall(t *testing.T) {
	db := testdb.Open(t)
	var acct cloudstore.Account
	err := db.Write(func(tx kv.Tx) error {
		acct = cloudstore.Account{Name: "a", Owner: "o", Email: "o@example.com", ActiveSince: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC),
			Contact:    cloudstore.Contact{City: "Philadelphia", Country: "US", State: "PA"},
			Promotions: []cloudstore.Promotion{{Code: "P", Summary: "s", MonthlyCapCents: 300, RemainingCents: 1000}}}
		return cloudstore.CreateAccount(tx, &acct)
	})
	if err != nil {
		t.Fatal(err)
	}
	svc := New(db, clock.NewFixed(time.Date(2026, 11, 22, 12, 0, 0, 123456789, time.UTC)), nil, Options{})
	by := cloudstore.User{Username: "o", AccountID: acct.ID}
	on, off := true, false
	for i, c := range []struct{ helper, backups *bool }{{&on, nil}, {nil, &on}, {&off, &off}, {nil, nil}, {&on, &on}} {
		var want cloudstore.Account
		db.View(func(tx kv.Tx) (err error) { want, err = cloudstore.GetAccount(tx, acct.ID); return })
		if c.helper != nil {
			want.Settings.NetworkHelper = *c.helper
		}
		if c.backups != nil {
			want.Settings.BackupsEnabled = *c.backups
		}
		wantJSON, _ := json.Marshal(want)
		got, err := svc.UpdateSettings(by, c.helper, c.backups)
		if err != nil || got.Settings != want.Settings {
			t.Fatalf("write %d: %+v, %v; want %+v", i, got.Settings, err, want.Settings)
		}
		var stored []byte
		var events []cloudstore.Event
		db.View(func(tx kv.Tx) (err error) {
			raw, _ := cloudstore.AccountBytes(tx, acct.ID)
			stored = append(stored, raw...)
			events, err = cloudstore.AccountEvents(tx, acct.ID)
			return err
		})
		if string(stored) != string(wantJSON) {
			t.Fatalf("write %d stored\n%s\nwant\n%s", i, stored, wantJSON)
		}
		name := "o"
		wantEvent := cloudstore.Event{ID: uint64(i + 1), AccountID: acct.ID, Action: "account_settings_update", Created: svc.Now(), Username: &name,
			Entity: &cloudstore.EventEntity{ID: acct.Euuid, Label: "a", Type: "account", URL: "/v4/account"}, Status: "notification"}
		if len(events) != i+1 || !sameJSON(events[i], wantEvent) {
			t.Fatalf("write %d: events %+v", i, events)
		}
	}
	// Back and forth between two states, once seen: no account decoded or encoded any more.
	svc.UpdateSettings(by, &off, nil)
	svc.UpdateSettings(by, &on, nil)
	svc.UpdateSettings(by, &off, nil)
	before := svc.codec.work.Load()
	for i := 0; i < 10; i++ {
		if _, err := svc.UpdateSettings(by, &on, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.UpdateSettings(by, &off, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := svc.codec.work.Load() - before; n != 0 {
		t.Fatalf("20 settings writes between two seen states decoded or encoded the account %d times", n)
	}
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
