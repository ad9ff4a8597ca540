package cloudapi

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"
)

// pngBytes is a real 2×2 PNG.
func pngBytes(t testing.TB) string {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestOAuthClients(t *testing.T) {
	e := newEnv(t, 0)
	created := e.do(t, req{method: "POST", path: "/v4/account/oauth-clients", token: demoToken,
		body: `{"label":"my app","redirect_uri":"https://app.example.com/cb"}`})
	var cv clientView
	decode(t, created.Body, &cv)
	if created.Status != 200 || len(cv.ID) != 20 || len(cv.Secret) != 64 || cv.Public || cv.Status != "active" || cv.ThumbnailURL != nil {
		t.Fatalf("create: %d %s", created.Status, created.Body)
	}
	base := "/v4/account/oauth-clients/" + cv.ID
	e.run(t, []scenario{
		{name: "list redacts secrets", req: req{path: "/v4/account/oauth-clients", token: demoToken}, status: 200,
			want: []string{`"label":"Pocket CLI"`, `"label":"my app"`, `"secret":"<REDACTED>"`, `"results":2`}, not: []string{cv.Secret}},
		{name: "filter on public", req: req{path: "/v4/account/oauth-clients", token: demoToken, header: map[string]string{"X-Filter": `{"public":true}`}},
			status: 200, want: []string{`"results":0`}},
		{name: "view", req: req{path: base, token: demoToken}, status: 200, want: []string{`"redirect_uri":"https://app.example.com/cb"`, `"secret":"<REDACTED>"`}},
		{name: "update", req: req{method: "PUT", path: base, token: demoToken, body: `{"label":"renamed","public":true}`}, status: 200,
			want: []string{`"label":"renamed"`, `"public":true`, `"redirect_uri":"https://app.example.com/cb"`}},
		{name: "create without required fields", req: req{method: "POST", path: "/v4/account/oauth-clients", token: demoToken, body: `{}`},
			status: 400, want: []string{`"field":"label"`, `"field":"redirect_uri"`}},
		{name: "create with bad redirect", req: req{method: "POST", path: "/v4/account/oauth-clients", token: demoToken, body: `{"label":"x","redirect_uri":"javascript:alert(1)"}`},
			status: 400, want: []string{`"field":"redirect_uri"`}},
		{name: "relative redirect", req: req{method: "PUT", path: base, token: demoToken, body: `{"redirect_uri":"/cb"}`}, status: 400},
		{name: "label too long", req: req{method: "PUT", path: base, token: demoToken, body: `{"label":"` + strings.Repeat("x", 513) + `"}`}, status: 400, want: []string{`"field":"label"`}},
		{name: "wrong type", req: req{method: "PUT", path: base, token: demoToken, body: `{"public":"yes"}`}, status: 400, want: []string{`"field":"public"`}},
		{name: "other account cannot see it", req: req{path: base, token: daveToken}, status: 404},
		{name: "other account cannot delete it", req: req{method: "DELETE", path: base, token: daveToken}, status: 404},
		{name: "no thumbnail yet", req: req{path: base + "/thumbnail"}, status: 404},
		{name: "thumbnail that is not a PNG", req: req{method: "PUT", path: base + "/thumbnail", token: demoToken, body: "GIF89a not a png",
			header: map[string]string{"Content-Type": "image/png"}}, status: 400, want: []string{"PNG"}},
		{name: "thumbnail with PNG magic but garbage", req: req{method: "PUT", path: base + "/thumbnail", token: demoToken, body: "\x89PNG\r\n\x1a\ngarbage"}, status: 400},
		{name: "empty thumbnail", req: req{method: "PUT", path: base + "/thumbnail", token: demoToken}, status: 400},
		{name: "thumbnail too big", req: req{method: "PUT", path: base + "/thumbnail", token: demoToken, body: pngBytes(t) + strings.Repeat("x", 1<<20)}, status: 400, want: []string{"at most"}},
		{name: "thumbnail", req: req{method: "PUT", path: base + "/thumbnail", token: demoToken, body: pngBytes(t), header: map[string]string{"Content-Type": "image/png"}}, status: 200, exact: `{}`},
		{name: "public thumbnail", req: req{path: base + "/thumbnail"}, status: 200, exact: pngBytes(t), header: map[string]string{"Content-Type": "image/png"}},
		{name: "view shows thumbnail_url", req: req{path: base, token: demoToken}, status: 200,
			want: []string{`"thumbnail_url":"http://pocketforge.test/v4/account/oauth-clients/` + cv.ID + `/thumbnail"`}},
	})
	reset := e.do(t, req{method: "POST", path: base + "/reset-secret", token: demoToken, body: "{}"})
	var rv clientView
	decode(t, reset.Body, &rv)
	if reset.Status != 200 || len(rv.Secret) != 64 || rv.Secret == cv.Secret {
		t.Fatalf("reset-secret: %d %s", reset.Status, reset.Body)
	}
	e.run(t, []scenario{
		{name: "old secret dead", req: req{method: "POST", path: "/oauth/token/expire", body: "client_id=" + cv.ID + "&client_secret=" + cv.Secret + "&token=x",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}, status: 401, want: []string{`"error":"invalid_client"`}},
		{name: "new secret works", req: req{method: "POST", path: "/oauth/token/expire", body: "client_id=" + cv.ID + "&client_secret=" + rv.Secret + "&token=x",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}, status: 200},
		{name: "delete", req: req{method: "DELETE", path: base, token: demoToken}, status: 200, exact: `{}`},
		{name: "gone", req: req{path: base, token: demoToken}, status: 404},
		{name: "thumbnail gone", req: req{path: base + "/thumbnail"}, status: 404},
	})
}
