package farm

import (
	"io"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/signkey"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// BenchmarkSigning (issue 34): what signing adds to the farm's steps, each timed with the
// project's key against the same step without one (x-raw is signed ÷ unsigned; budget 1.3):
//
//   - "build": writing one built package's RPM, as a job's finish does (rpmout.Write, then the
//     header and header+payload signatures);
//   - "product": the finish of a product shipping 1,000 packages the farm signed when it built
//     them (BenchmarkProductBuild/finish's work; signed: each package checked, repomd signed);
//   - "publish": rewriting the published tree of those 1,000 packages (reading every RPM,
//     rpm-md over them; signed: each package checked, repomd signed).
func BenchmarkSigning(b *testing.B) {
	svc, db := benchFarm(b)
	now := svc.clk.Now()
	k, err := signkey.New("dev OBS Project", "dev@build.pocketforge", now, signkey.DefaultDays)
	if err != nil {
		b.Fatal(err)
	}
	signer, err := signkey.NewSigner(k.Private)
	if err != nil {
		b.Fatal(err)
	}
	sign := func(m io.Reader) ([]byte, error) { return signer.Sign(m, now) }
	w := buildstore.Where{Project: "dev", Repository: "standard", Arch: "x86_64"}
	// the packages as the farm writes them now: signed
	err = db.Write(func(tx kv.Tx) error {
		bins, err := buildstore.Binaries(tx, w, "")
		if err != nil {
			return err
		}
		for _, bin := range bins {
			data, err := rpmout.Sign(append([]byte(nil), buildstore.BinaryFile(tx, w, bin.Package, bin.Filename)...), sign)
			if err != nil {
				return err
			}
			if err := buildstore.PutBinary(tx, w, bin, data); err != nil {
				return err
			}
		}
		return buildstore.PutRepoState(tx, w, buildstore.RepoState{Code: "finished"})
	})
	if err != nil {
		b.Fatal(err)
	}

	b.Run("build", func(b *testing.B) {
		r := rpmout.RPM{Name: "pocket-cli", Version: "1.1.0", Release: "2.2", Arch: "x86_64", Summary: "s", License: "MIT", BuildTime: now,
			Files: []rpmout.File{{Path: "/usr/bin/pocket", Body: make([]byte, 4096), Mode: 0o755}, {Path: "/usr/share/doc/pocket/README", Body: make([]byte, 2048)}}}
		write := func() []byte {
			var buf bytesBuffer
			if err := rpmout.Write(&buf, r); err != nil {
				b.Fatal(err)
			}
			return buf.b
		}
		bench.Compare(b, 1, func(int) {
			if _, err := rpmout.Sign(write(), sign); err != nil {
				b.Fatal(err)
			}
		}, func(int) { write() })
	})
	b.Run("product", func(b *testing.B) {
		pw, st, c := benchProduct(b, svc, db)
		finish := func(s *signkey.Signer) {
			if err := db.Write(func(tx kv.Tx) error { return svc.storeProductWith(tx, pw, st, c(tx), s, now) }); err != nil {
				b.Fatal(err)
			}
		}
		bench.Compare(b, 1, func(int) { finish(signer) }, func(int) { finish(nil) })
	})
	b.Run("publish", func(b *testing.B) {
		publish := func(s *signkey.Signer) {
			err := db.Write(func(tx kv.Tx) error {
				pub, err := newPublication(tx, "dev", "standard")
				if err != nil || pub == nil {
					b.Fatalf("no publication: %v", err)
				}
				pub.digest += "-" + time.Now().String() // rewrite the tree every time
				return pub.write(tx, s, now)
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		bench.Compare(b, 1, func(int) { publish(signer) }, func(int) { publish(nil) })
	})
}

// bytesBuffer is a minimal io.Writer collecting bytes.
type bytesBuffer struct{ b []byte }

func (w *bytesBuffer) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }
