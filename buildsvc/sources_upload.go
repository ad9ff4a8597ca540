package buildsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The writes that commit nothing yet: a blob osc uploads with ?rev=repository before its
// commitfilelist names it, and a file of the upload revision (?rev=upload) that cmd=commit
// commits (Commit with UploadRevision) or cmd=deleteuploadrev discards. Uploads never committed
// are swept after a grace period (SweepBlobs).

// UploadBlob keeps data, uploaded by who as file name of project/pkg, for a commitfilelist to
// name; until one does it is pending and the sweep removes it.
func (s *Service) UploadBlob(who buildstore.Person, project, pkg, name string, data []byte) error {
	return s.writeFile(who, project, pkg, name, data, func(tx kv.Tx, now time.Time) error {
		_, err := buildstore.PutPendingBlob(tx, data, now)
		return err
	})
}

// AddUpload adds file name with data to the package's upload revision.
func (s *Service) AddUpload(who buildstore.Person, project, pkg, name string, data []byte) error {
	return s.writeFile(who, project, pkg, name, data, func(tx kv.Tx, now time.Time) error {
		sum, err := buildstore.PutBlob(tx, data)
		if err != nil {
			return err
		}
		return buildstore.AddUpload(tx, project, pkg, buildstore.FileEntry{Name: name, MD5: sum, Size: int64(len(data)), MTime: now.Unix()})
	})
}

// DiscardUpload drops the package's upload revision (none is fine); its blobs stay, as all
// blobs do.
func (s *Service) DiscardUpload(who buildstore.Person, project, pkg string) error {
	return s.db.Write(func(tx kv.Tx) error {
		if err := Writable(tx, who, project, pkg, "delete_file_no_permission"); err != nil {
			return err
		}
		return buildstore.DropUpload(tx, project, pkg)
	})
}

// writeFile runs store for a file write by who that commits nothing: the name and size rules,
// the package writable by who, a _link a link document.
func (s *Service) writeFile(who buildstore.Person, project, pkg, name string, data []byte, store func(tx kv.Tx, now time.Time) error) error {
	if err := CheckFileName(name); err != nil {
		return err
	}
	if err := s.checkSize(name, data); err != nil {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error {
		if err := Writable(tx, who, project, pkg, "put_file_no_permission"); err != nil {
			return err
		}
		if name == buildstore.LinkFile {
			if err := CheckLink(data); err != nil {
				return err
			}
		}
		return store(tx, s.clk.Now())
	})
}

// checkSize refuses a file over the service's size limit (--source-file-limit) with 413
// file_too_large.
func (s *Service) checkSize(name string, data []byte) error {
	if limit := s.opts.FileLimit; limit > 0 && int64(len(data)) > limit {
		return fault.TooLarge("file_too_large", "file '%s' is %d bytes, more than this service takes (%d bytes, --source-file-limit)", name, len(data), limit)
	}
	return nil
}
