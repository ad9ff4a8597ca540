package explorersvc

import (
	"strings"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
)

// The operator's imports while the appliance runs (POST /_appliance/explorer/import): a path on
// the appliance's file system, or one SBOM sent in a request. A product that does not load or
// import is reported with its problem; the products already done stay.

// Problem is a product file that was not imported, and why.
type Problem struct {
	File  string
	Error string
}

// Report is what an import of several products did.
type Report struct {
	// Imported lists the products imported (or unchanged), in file order.
	Imported []Imported
	// Problems lists the files that did not load, then those that did not import.
	Problems []Problem
}

// ImportPath imports every product SBOM path names (a file, or each *.spdx.json below a
// directory, each with its repodata/ beside it). A path that does not exist or holds no SBOM
// is invalid.
func (s *Service) ImportPath(path string) (Report, error) {
	files, err := FindSBOMs(path)
	if err != nil {
		return Report{}, invalid("path: " + strings.TrimPrefix(err.Error(), "stat "))
	}
	if len(files) == 0 {
		return Report{}, invalid("no *" + SBOMSuffix + " file under " + path)
	}
	var rep Report
	var unloaded []Problem
	for l := range LoadAhead(files) {
		if l.Err != nil {
			unloaded = append(unloaded, Problem{File: l.File, Error: l.Err.Error()})
			continue
		}
		s.importAll(&rep, []Input{l.Input})
	}
	rep.Problems = append(unloaded, rep.Problems...) // those that did not load come first
	return rep, nil
}

// ImportDocument imports one SBOM sent as data (no file lists: an upload is one file), named
// name in errors and as its source. An SBOM that does not parse is invalid.
func (s *Service) ImportDocument(data []byte, name string) (Report, error) {
	in, err := LoadDocument(data, name)
	if err != nil {
		return Report{}, invalid(err.Error())
	}
	var rep Report
	s.importAll(&rep, []Input{in})
	return rep, nil
}

// importAll imports inputs one by one into rep.
func (s *Service) importAll(rep *Report, inputs []Input) {
	for _, in := range inputs {
		res, err := s.Import(in)
		if err != nil {
			rep.Problems = append(rep.Problems, Problem{File: in.Source, Error: err.Error()})
			continue
		}
		rep.Imported = append(rep.Imported, res)
	}
}

// invalid is a refusal whose message is msg as is (it may hold a % of a file name).
func invalid(msg string) *fault.Error { return &fault.Error{Kind: store.ErrInvalid, Msg: msg} }
