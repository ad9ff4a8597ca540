package badges

import (
	"bytes"
	"context"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The goldens as pixels: each testdata/<name>.svg is rendered by a real SVG renderer,
// rsvg-convert (librsvg, Debian's librsvg2-bin), and compared with testdata/png/<name>.png
// (UPDATE_GOLDEN=1 rewrites those). The golden test pins the SVG's bytes and svg11_test.go its
// structure; this test is what notices a drawing that is valid but looks wrong — a ground in
// the wrong place, text off its box, a clip that cuts a corner — and lets a person look.
//
// Text is rendered with DejaVu Sans alone (Debian's fonts-dejavu-core, the font shields' stack
// "Verdana,Geneva,DejaVu Sans,sans-serif" reaches on Linux): rsvg-convert runs with a
// fontconfig that knows only that file, so a machine that also has Verdana, or a CJK font for
// the Unicode label, renders what a fresh CI machine does. librsvg 2.54 (Debian 12) ignores
// textLength, so text is drawn at DejaVu's own widths; the lengths are checked in svg11_test.go.

const (
	// channelTolerance is how far apart two pixels' channels (8-bit, premultiplied red, green,
	// blue and alpha) may be before the pixels count as different. Antialiasing and glyph
	// rasterisation differ between FreeType, cairo and librsvg versions by a few counts on
	// edges, up to about 40 on a glyph's stem; a different colour, a ground moved by a pixel
	// or a missing shadow changes pixels by far more than 48 (the nearest two colours a
	// drawing uses, #e05d44 and #dfb317, differ by 86 in green; the gradient overlay alone
	// changes a channel by at most 19).
	channelTolerance = 48
	// maxDifferingShare is the share of pixels that may differ by more than channelTolerance:
	// 1%, room for glyph outlines drawn a little differently (text covers 10–25% of a badge,
	// and a font version moves only some of its edge pixels), but not for a text moved by a
	// pixel, a side of a badge in the wrong colour, or a row or column added or lost.
	maxDifferingShare = 0.01
	// maxTileShare is the share of pixels that may differ in any one Height×Height tile (a
	// table cell's height): a third. In a 50-row table 1% is a dozen cells, so the share over
	// the whole picture would let a cell drawn in the wrong colour through; a tile whose
	// ground changed colour differs in 85–100% of its pixels, while text, even moved by a
	// pixel, changes at most about a quarter of a tile.
	maxTileShare = 1.0 / 3
)

// noPNGReference are goldens rendered (the renderer must accept them and draw them at their
// size) but not compared with a committed picture, each with the reason.
var noPNGReference = map[string]string{
	"table-50x10": "its 1017×1020 picture is 390 KB, as much as all the other pictures together; every " +
		"colour, cell and link it draws is in table-every-code and table-truncated-repos",
}

// renderer is rsvg-convert with an environment that confines it to DejaVu Sans.
type renderer struct {
	bin string
	env []string
}

// dejaVuSans is where distributions put DejaVu Sans (Debian and Ubuntu first).
var dejaVuSans = []string{
	"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
	"/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
	"/usr/share/fonts/dejavu/DejaVuSans.ttf",
	"/usr/share/fonts/TTF/DejaVuSans.ttf",
	"/usr/share/fonts/truetype/DejaVuSans.ttf",
}

func findFont() string {
	for _, p := range dejaVuSans {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// newRenderer finds rsvg-convert and DejaVu Sans, and skips the test, naming the Debian
// packages, when either is missing: a test installs nothing (.ci/run installs them).
func newRenderer(t *testing.T) *renderer {
	t.Helper()
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		t.Skip("rsvg-convert is not installed: install Debian's librsvg2-bin to run this test (.ci/run does)")
	}
	font := findFont()
	if font == "" {
		t.Skipf("DejaVu Sans is in none of %v: install Debian's fonts-dejavu-core to run this test (.ci/run does)", dejaVuSans)
	}
	dir := t.TempDir()
	fonts := filepath.Join(dir, "fonts")
	if err := os.Mkdir(fonts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(font, filepath.Join(fonts, "DejaVuSans.ttf")); err != nil {
		t.Fatal(err)
	}
	var conf bytes.Buffer
	conf.WriteString("<?xml version=\"1.0\"?>\n<fontconfig>\n<dir>")
	_ = xml.EscapeText(&conf, []byte(fonts))
	conf.WriteString("</dir>\n<cachedir>")
	_ = xml.EscapeText(&conf, []byte(filepath.Join(dir, "cache")))
	conf.WriteString("</cachedir>\n</fontconfig>\n")
	confPath := filepath.Join(dir, "fonts.conf")
	if err := os.WriteFile(confPath, conf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return &renderer{bin: bin, env: append(os.Environ(), "FONTCONFIG_FILE="+confPath)}
}

// render draws the SVG file at path at its own size (one pixel per SVG unit).
func (r *renderer) render(t *testing.T, path string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.bin, "--format=png", path)
	cmd.Env = r.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rsvg-convert %s: %v: %s", path, err, stderr.Bytes())
	}
	return out
}

// svgSize is the width and height the root of the SVG document says.
func svgSize(t *testing.T, data []byte) (int, int) {
	t.Helper()
	var root struct {
		Width  string `xml:"width,attr"`
		Height string `xml:"height,attr"`
	}
	if err := xml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	w, err1 := strconv.Atoi(root.Width)
	h, err2 := strconv.Atoi(root.Height)
	if err1 != nil || err2 != nil {
		t.Fatalf("size %q×%q", root.Width, root.Height)
	}
	return w, h
}

func decodePNG(t *testing.T, what string, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return img
}

// compare counts the pixels of got and want (the same size) more than channelTolerance apart
// in some channel, finds the largest share of such pixels in one tile of the Height×Height
// grid (a cell of a table row), and draws where they are: red, the others a faint copy of want.
func compare(got, want image.Image) (n int, worstTile float64, diff *image.NRGBA) {
	b := want.Bounds()
	diff = image.NewNRGBA(b)
	cols := (b.Dx() + Height - 1) / Height
	tiles := make([]int, cols*((b.Dy()+Height-1)/Height))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g := color.RGBAModel.Convert(got.At(x, y)).(color.RGBA)
			w := color.RGBAModel.Convert(want.At(x, y)).(color.RGBA)
			if max(absDiff(g.R, w.R), absDiff(g.G, w.G), absDiff(g.B, w.B), absDiff(g.A, w.A)) > channelTolerance {
				n++
				tiles[(y-b.Min.Y)/Height*cols+(x-b.Min.X)/Height]++
				diff.SetNRGBA(x, y, color.NRGBA{R: 255, A: 255})
				continue
			}
			grey := color.GrayModel.Convert(w).(color.Gray).Y
			diff.SetNRGBA(x, y, color.NRGBA{R: grey, G: grey, B: grey, A: 64})
		}
	}
	for i, c := range tiles {
		// A tile on the right or bottom edge may be cut short.
		tw := min(Height, b.Dx()-i%cols*Height)
		th := min(Height, b.Dy()-i/cols*Height)
		worstTile = max(worstTile, float64(c)/float64(tw*th))
	}
	return n, worstTile, diff
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// keep writes what a person needs to see a failure — the rendering, and the diff when there
// is one — to a directory that outlives the test, and says where.
func keep(t *testing.T, name string, got []byte, diff image.Image) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "badges-png-"+name+"-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "got.png"), got, 0o644); err != nil {
		t.Fatal(err)
	}
	if diff != nil {
		var buf bytes.Buffer
		if err := png.Encode(&buf, diff); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "diff.png"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRenderPNG renders every golden SVG with rsvg-convert and compares each picture with its
// reference in testdata/png within channelTolerance, maxDifferingShare and maxTileShare.
func TestRenderPNG(t *testing.T) {
	r := newRenderer(t)
	svgs := goldenSVGs(t)
	for name, data := range svgs {
		t.Run(name, func(t *testing.T) {
			got := r.render(t, filepath.Join("testdata", name+".svg"))
			img := decodePNG(t, "rsvg-convert's picture", got)
			if w, h := svgSize(t, data); img.Bounds() != image.Rect(0, 0, w, h) {
				t.Fatalf("rendered %v, the SVG is %d×%d", img.Bounds().Size(), w, h)
			}
			if why := noPNGReference[name]; why != "" {
				t.Skipf("rendered, not compared: %s", why)
			}
			path := filepath.Join("testdata", "png", name+".png")
			if update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			ref, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (UPDATE_GOLDEN=1 writes it; rendered picture in %s)", err, keep(t, name, got, nil))
			}
			want := decodePNG(t, path, ref)
			if img.Bounds() != want.Bounds() {
				t.Fatalf("rendered %v, %s is %v (rendered picture in %s)", img.Bounds().Size(), path, want.Bounds().Size(), keep(t, name, got, nil))
			}
			n, worst, diff := compare(img, want)
			total := want.Bounds().Dx() * want.Bounds().Dy()
			share := float64(n) / float64(total)
			if share > maxDifferingShare || worst > maxTileShare {
				t.Errorf("%d of %d pixels (%.2f%%; %.0f%% of the worst %d×%d tile) differ from %s by more than %d; "+
					"at most %.0f%% (and %.0f%% of a tile) may (UPDATE_GOLDEN=1 to accept): got.png and diff.png "+
					"(red where they differ) in %s", n, total, 100*share, 100*worst, Height, Height, path,
					channelTolerance, 100*maxDifferingShare, 100*maxTileShare, keep(t, name, got, diff))
			} else if n > 0 {
				t.Logf("%d of %d pixels differ by more than %d, within what is allowed", n, total, channelTolerance)
			}
		})
	}
	// A reference whose golden is gone is a picture nothing checks any more.
	refs, _ := filepath.Glob(filepath.Join("testdata", "png", "*.png"))
	for _, p := range refs {
		if name := strings.TrimSuffix(filepath.Base(p), ".png"); svgs[name] == nil || noPNGReference[name] != "" {
			t.Errorf("%s is the picture of no compared golden: remove it", p)
		}
	}
}

// overlaid is the colour a ground of colour hex shows at row dy (0–19) of its 20-pixel row,
// under the gradient every row carries: #bbb at the top fading to #000 at the bottom, both at
// opacity .1, sampled at the pixel's centre.
func overlaid(t *testing.T, hex string, dy int) [3]float64 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		t.Fatalf("colour %q", hex)
	}
	var rgb [3]float64
	if len(hex) == 4 { // #rgb
		rgb = [3]float64{float64(v>>8&0xf) * 17, float64(v>>4&0xf) * 17, float64(v&0xf) * 17}
	} else {
		rgb = [3]float64{float64(v >> 16 & 0xff), float64(v >> 8 & 0xff), float64(v & 0xff)}
	}
	grey := 0xbb * (1 - (float64(dy)+.5)/Height)
	for i := range rgb {
		rgb[i] = .9*rgb[i] + .1*grey
	}
	return rgb
}

// TestRenderedColours looks at the references where the meaning is: each state's colour is
// where the drawing puts it (sampled in the padding left of a text, clear of glyphs and lines),
// and the badge's corners are round. It reads the committed pictures, so it needs no renderer.
func TestRenderedColours(t *testing.T) {
	const tolerance = 8 // per channel, for rounding and how a renderer interpolates the gradient
	for name, fills := range map[string][]string{
		"badge-passing":    {LabelColour, ColourPassing},
		"error":            {LabelColour, ColourInactive},
		"package-building": {ColourBuilding},
		"table-truncated":  {ColourBlocked, ColourPassing, ColourFailed},
	} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", name+".svg"))
			if err != nil {
				t.Fatal(err)
			}
			root, err := parseSVG(data)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "png", name+".png")
			ref, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			img := decodePNG(t, path, ref)
			for _, fill := range fills {
				var ground *element
				for _, r := range root.all("rect") {
					if r.attrs["fill"] == fill && ground == nil {
						ground = r
					}
				}
				if ground == nil {
					t.Errorf("no ground is %s", fill)
					continue
				}
				x, y := intAttr(t, ground, "x")+2, intAttr(t, ground, "y")+Height/2
				got := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				want := overlaid(t, fill, Height/2)
				for i, c := range [3]uint8{got.R, got.G, got.B} {
					if math.Abs(float64(c)-want[i]) > tolerance || got.A != 255 {
						t.Errorf("pixel %d,%d is %v, want %s under the gradient ≈ %.0f", x, y, got, fill, want)
						break
					}
				}
			}
			if a := color.NRGBAModel.Convert(img.At(0, 0)).(color.NRGBA).A; a > 128 {
				t.Errorf("the top left corner pixel has alpha %d: the corner is not round", a)
			}
			if a := color.NRGBAModel.Convert(img.At(0, Height/2)).(color.NRGBA).A; a != 255 {
				t.Errorf("the left edge has alpha %d, want opaque", a)
			}
		})
	}
}
