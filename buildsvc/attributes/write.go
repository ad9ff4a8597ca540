package attributes

import (
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The one path every attribute write takes: a namespace's, a definition's or a container's
// values. The service checks each of them in the same order — find the object, check the
// caller, check the document, store — and stores a document whole or not at all, so that
// order and the all-or-nothing rule are written here once.

// MaxAttributeDoc bounds every attribute document: the largest real one (a definition with a
// long allowed list) is a few kilobytes, so a megabyte is only ever a mistake or an attack.
const MaxAttributeDoc = 1 << 20

// AttributeDoc is an attribute document as the handler decoded it. The service reports a
// broken document only after the checks it makes first (the namespace exists, the caller may
// write), so the decoding error travels to the operation instead of being answered at once.
type AttributeDoc struct {
	// Size is the document's length in bytes.
	Size int
	// Err is what decoding found wrong with the document (nil: nothing).
	Err error
}

// checkSize refuses a document past MaxAttributeDoc; it is checked before anything else is
// read, so a huge body costs no transaction.
func (d AttributeDoc) checkSize() error {
	if d.Size > MaxAttributeDoc {
		return fault.TooLarge("request_too_large", "the document has %d bytes; attribute documents take at most %d", d.Size, MaxAttributeDoc)
	}
	return nil
}

// attributeStep is one check or change of an attribute write, run inside its transaction.
type attributeStep func(tx kv.Tx) error

// refusal is a step that only reports err (a check made before the write, in its place in
// the service's order).
func refusal(err error) attributeStep { return func(kv.Tx) error { return err } }

// writeAttributes runs one attribute write: doc's size first (a delete has no document), then
// the steps in order in one write transaction; the first refusal ends it with nothing stored.
// Steps may run twice (group commit), so they only read and write the transaction and the
// variables they set.
func (s *Service) writeAttributes(doc AttributeDoc, steps ...attributeStep) error {
	if err := doc.checkSize(); err != nil {
		return err
	}
	return s.Store().Write(func(tx kv.Tx) error {
		for _, step := range steps {
			if err := step(tx); err != nil {
				return err
			}
		}
		return nil
	})
}

// runAttributeSteps is writeAttributes inside the caller's transaction: doc's size, then the
// steps in order; the first refusal ends it (the caller's transaction then holds what the steps
// before wrote, so a caller rolls back on an error, as the fixtures' loader does).
func runAttributeSteps(tx kv.Tx, doc AttributeDoc, steps ...attributeStep) error {
	if err := doc.checkSize(); err != nil {
		return err
	}
	for _, step := range steps {
		if err := step(tx); err != nil {
			return err
		}
	}
	return nil
}
