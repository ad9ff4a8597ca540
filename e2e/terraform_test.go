package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// tfToken is the bootstrap token the recorded provider run used (its requests carry it).
const tfToken = "tf-root-token-1"

// tfStep is one request of the recorded run and the appliance's answer then.
type tfStep struct {
	Phase    string          `json:"phase"`
	Method   string          `json:"method"`
	Path     string          `json:"path"`
	Query    string          `json:"query"`
	XFilter  string          `json:"x_filter"`
	Body     json.RawMessage `json:"body"`
	Status   int             `json:"status"`
	Response json.RawMessage `json:"response"`
	Polls    int             `json:"polls"` // asked this many times while waiting (the last answer kept)
}

// TestTerraformProviderReplay (issue 33) replays the requests Terraform's linode provider (v3,
// built from source with linodego 1.69.1, under terraform 1.11.4) sent to the appliance for a
// whole life of the README's configuration — plan, apply, a re-plan, an update, a re-plan,
// destroy (testdata/terraform/linode-provider.jsonl, recorded through a logging proxy; see
// README, "Terraform") — against a fresh appliance with the same flags, and checks every
// answer: the same status, and the same JSON but for what time and chance change (timestamps,
// secrets, hosts, progress). A request the provider repeated while waiting (an event until
// finished, a database until active) is asked again, moving the dev clock a second each time,
// until the answer is the recorded last one. So CI proves the provider's flow — no step it
// cannot take, no answer that would make a re-plan drift — without building Terraform.
func TestTerraformProviderReplay(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--bootstrap-token", tfToken, "--dev-clock", "--db-provision-time", "2s")
	p.waitReady(t)
	steps := readTFSteps(t, "testdata/terraform/linode-provider.jsonl")
	client := &http.Client{Timeout: 10 * time.Second}
	for i, s := range steps {
		var status int
		var got []byte
		diff := ""
		for try := 0; try < 120; try++ {
			status, got = s.send(t, client, p.url)
			if diff = tfDiff(s.Response, got); status == s.Status && diff == "" {
				break
			}
			if s.Method != "GET" {
				break // a write is not repeated
			}
			request(t, "POST", p.url+"/_appliance/clock", tfToken, strings.NewReader(`{"advance":"1s"}`))
		}
		if status != s.Status || diff != "" {
			t.Fatalf("step %d (%s) %s %s?%s %s: status %d (recorded %d)\n%s\ngot: %.2000s", i, s.Phase, s.Method, s.Path, s.Query, s.XFilter, status, s.Status, diff, got)
		}
	}
}

func readTFSteps(t *testing.T, path string) []tfStep {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var steps []tfStep
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var s tfStep
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, s)
	}
	if len(steps) < 100 {
		t.Fatalf("%s: %d steps", path, len(steps))
	}
	return steps
}

// send sends the step as the provider did: its token, X-Filter and JSON body.
func (s tfStep) send(t *testing.T, client *http.Client, base string) (int, []byte) {
	t.Helper()
	url := base + s.Path
	if s.Query != "" {
		url += "?" + s.Query
	}
	var body io.Reader
	if len(s.Body) > 0 {
		body = bytes.NewReader(s.Body)
	}
	req, err := http.NewRequest(s.Method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tfToken)
	req.Header.Set("Content-Type", "application/json")
	if s.XFilter != "" {
		req.Header.Set("X-Filter", s.XFilter)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// tfVolatile are the answer's members that time or chance set: compared only for being there.
var tfVolatile = map[string]bool{
	"created": true, "updated": true, "time_remaining": true, "duration": true, "percent_complete": true,
	"password": true, "token": true, "ca_certificate": true, "oldest_restore_time": true,
	"primary": true, "secondary": true, "standby": true, "port": true, "last_login": true,
	"balance": true, "balance_uninvoiced": true, "active_since": true, "expiry": true, "euuid": true,
}

// tfDiff compares two JSON answers but for the volatile members ("" when they agree).
func tfDiff(want, got []byte) string {
	if len(want) == 0 {
		return ""
	}
	var w, g any
	if json.Unmarshal(want, &w) != nil {
		return ""
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return fmt.Sprintf("not JSON: %v", err)
	}
	return jsonDiff("$", w, g)
}

func jsonDiff(at string, w, g any) string {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %v, recorded an object", at, g)
		}
		for k := range wv {
			if _, ok := gv[k]; !ok {
				return fmt.Sprintf("%s.%s: missing", at, k)
			}
			if tfVolatile[k] {
				continue
			}
			if d := jsonDiff(at+"."+k, wv[k], gv[k]); d != "" {
				return d
			}
		}
		for k := range gv {
			if _, ok := wv[k]; !ok {
				return fmt.Sprintf("%s.%s: not recorded", at, k)
			}
		}
		return ""
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			return fmt.Sprintf("%s: %d items, recorded %d", at, len(gv), len(wv))
		}
		for i := range wv {
			if d := jsonDiff(fmt.Sprintf("%s[%d]", at, i), wv[i], gv[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(w, g) {
		return fmt.Sprintf("%s: %v, recorded %v", at, g, w)
	}
	return ""
}
