// Command barefiber is the floor scripts/e2e-bench.sh measures the appliance against: a bare
// fiber app answering each given path with the bytes and content type the appliance answered
// it with. It asks the appliance once at start, then serves the copies; no middleware, no
// authentication, no store.
//
//	barefiber -from http://127.0.0.1:8080 -addr 127.0.0.1:8081 '/v4/account Authorization: Bearer …' /badge/devel:tools.svg
//
// Each argument is a path, optionally followed by one header to send with the first request
// (a credential); the path is served as is.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strings"

	"github.com/gofiber/fiber/v2"
)

func main() {
	from := flag.String("from", "", "the appliance's base `URL` to copy the answers from")
	addr := flag.String("addr", "127.0.0.1:0", "the `address` to listen on")
	flag.Parse()
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	for _, arg := range flag.Args() {
		path, header, _ := strings.Cut(arg, " ")
		body, ctype, err := fetch(*from+path, header)
		if err != nil {
			log.Fatalf("barefiber: %s: %v", path, err)
		}
		// ':' starts a parameter in a fiber route: escaped, the path matches only itself
		app.Get(strings.ReplaceAll(path, ":", "\\:"), func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, ctype)
			return c.Send(body)
		})
		fmt.Fprintf(os.Stderr, "barefiber: %s: %d bytes of %s\n", path, len(body), ctype)
	}
	log.Fatal(app.Listen(*addr))
}

// fetch GETs url with header ("Name: value", or "") and returns a 200's body and content type.
func fetch(url, header string) ([]byte, string, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return nil, "", err
	}
	if name, value, ok := strings.Cut(header, ": "); ok {
		req.Header.Set(name, value)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("%s: %s", resp.Status, body)
	}
	return body, resp.Header.Get("Content-Type"), err
}
