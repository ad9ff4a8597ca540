package valuesweb

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/values"
	"github.com/pocketforge/pocketforge/web"
)

const csrf = "0123456789abcdef0123456789abcdef" // the pf_csrf cookie and form field of the tests

func newApp() *fiber.App {
	app := fiber.New(fiber.Config{DisableStartupMessage: true, BodyLimit: 4 * values.MaxSize,
		ErrorHandler: func(c *fiber.Ctx, err error) error {
			status := http.StatusInternalServerError
			var fe *fiber.Error
			if errors.As(err, &fe) {
				status = fe.Code
			}
			return web.ErrorPage(c, status, err.Error())
		}})
	Bind(app, Deps{Site: &web.Site{}})
	return app
}

type response struct {
	status int
	body   string
}

func send(t *testing.T, app *fiber.App, req *http.Request) response {
	t.Helper()
	req.Header.Set("Cookie", "pf_csrf="+csrf)
	resp, err := app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, string(data)}
}

// paste posts the textarea form.
func paste(t *testing.T, app *fiber.App, text string, extra url.Values) response {
	t.Helper()
	form := url.Values{"values": {text}, "csrf": {csrf}}
	for k, v := range extra {
		form[k] = v
	}
	req := httptest.NewRequest("POST", "/values", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return send(t, app, req)
}

// upload posts the multipart form with a file, as the page's form does.
func upload(t *testing.T, app *fiber.App, name string, content []byte, withCSRF bool) response {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if withCSRF {
		_ = w.WriteField("csrf", csrf)
	}
	_ = w.WriteField("values", "")
	fw, _ := w.CreateFormFile("file", name)
	_, _ = fw.Write(content)
	_ = w.Close()
	req := httptest.NewRequest("POST", "/values", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return send(t, app, req)
}

func expect(t *testing.T, r response, status int, contains []string, excludes ...string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	for _, w := range contains {
		if !strings.Contains(r.body, w) {
			t.Errorf("body lacks %q:\n%s", w, r.body)
		}
	}
	for _, n := range excludes {
		if strings.Contains(r.body, n) {
			t.Errorf("body must not contain %q", n)
		}
	}
}

func TestForm(t *testing.T) {
	app := newApp()
	expect(t, send(t, app, httptest.NewRequest("GET", "/values", nil)), 200,
		[]string{`<label for="values">`, `<label for="file">`, `enctype="multipart/form-data"`, `name="csrf" value="` + csrf + `"`,
			`aria-current="page">Values`, `href="/deploy/values/schema.json"`})
	expect(t, upload(t, app, "v.yaml", []byte("controller:\n  logLevel: info\n"), false), 403, []string{"did not come from this site"})
	expect(t, paste(t, app, "controller: {}\n", url.Values{"csrf": {"ffffffffffffffffffffffffffffffff"}}), 403, nil)
}

func TestValidate(t *testing.T) {
	app := newApp()
	invalid, err := os.ReadFile("../../values/testdata/invalid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("valid paste shows the merged values", func(t *testing.T) {
		expect(t, paste(t, app, "controller:\n  logLevel: debug\n  livenessProbe:\n    periodSeconds: 7\n", nil), 200,
			[]string{`id="values-valid"`, "<strong>Valid.</strong>", "logLevel: debug", "periodSeconds: 7\n", "speaker:", "metricsPort: 7472\n", "merged over the defaults",
				">controller:\n  logLevel: debug"}, // the paste is drawn back into the textarea
			`id="values-invalid"`)
	})
	t.Run("alone, required keys are missing", func(t *testing.T) {
		expect(t, paste(t, app, "controller:\n  logLevel: debug\n", url.Values{"nodefaults": {"1"}}), 200,
			[]string{`id="values-invalid"`, "required", `name="nodefaults" value="1" checked`})
	})
	t.Run("invalid upload lists violations with paths", func(t *testing.T) {
		expect(t, upload(t, app, "invalid.yaml", invalid, true), 200,
			[]string{`id="values-invalid"`, "19 violations in invalid.yaml", "/controller/image/pullPolicy", "/imagePullSecrets/0/namespace",
				"additionalProperties", "/speaker/tolerateMaster", "got string &#34;true&#34;, want boolean"})
	})
	t.Run("a key with markup is escaped", func(t *testing.T) {
		expect(t, paste(t, app, "imagePullSecrets:\n  - name: x\n    \"<script>alert(1)</script>\": 1\n", nil), 200,
			[]string{"/imagePullSecrets/0/&lt;script&gt;alert(1)&lt;~1script&gt;", "key &#34;&lt;script&gt;alert(1)&lt;/script&gt;&#34; is not allowed here"}, "<script>alert")
	})
	t.Run("text that closes the textarea stays inside it", func(t *testing.T) {
		expect(t, paste(t, app, "a: [\n</textarea><script>x</script>", nil), 400,
			[]string{`id="values-problem"`, "Not a values document: line", "&lt;/textarea&gt;&lt;script&gt;"}, "<script>x")
	})
	t.Run("binary upload", func(t *testing.T) {
		png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
		expect(t, upload(t, app, "logo.png", png, true), 400,
			[]string{"logo.png: Not a values document: line 1, column 1: not UTF-8 text (byte 0x89)"})
	})
	t.Run("a list is no values document", func(t *testing.T) {
		expect(t, upload(t, app, "list.yaml", []byte("- a\n- b\n"), true), 400, []string{"Not a values document"})
	})
	t.Run("too large", func(t *testing.T) {
		big := bytes.Repeat([]byte("#"), values.MaxSize+1)
		expect(t, upload(t, app, "big.yaml", big, true), 413, []string{"big.yaml", "larger than 1048576 bytes"})
		expect(t, paste(t, app, string(big), nil), 413, []string{"larger than 1048576 bytes"})
	})
	t.Run("nothing sent", func(t *testing.T) {
		expect(t, paste(t, app, "  \n", nil), 400, []string{"paste a values file, or choose one to upload"})
		expect(t, upload(t, app, "empty.yaml", nil, true), 400, []string{"empty.yaml is empty"})
	})
}
