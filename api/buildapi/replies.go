package buildapi

import "github.com/gofiber/fiber/v2"

// The two answers of a handler that called its one domain operation, so no handler repeats the
// "if err != nil { return err }; render" shape: a read renders what the operation returned, a
// write answers <status code="ok">. A refusal goes to RenderError either way.

// replyXML renders a read operation's result with doc, or passes its error on. It takes the
// operation's two results directly: return replyXML(c, trackerDoc)(a.Svc.Tracker(name)).
func replyXML[T, D any](c *fiber.Ctx, doc func(T) D) func(T, error) error {
	return func(v T, err error) error {
		if err != nil {
			return err
		}
		return sendXML(c, doc(v))
	}
}

// docsOf renders every record of a list with doc, for the list documents (nil for none, which
// encoding/xml writes as no element, the same as an empty list).
func docsOf[T, D any](list []T, doc func(T) D) []D {
	var out []D
	for _, v := range list {
		out = append(out, doc(v))
	}
	return out
}

// answer is the handler of a read that takes no input: the operation read, rendered with doc.
func answer[T, D any](read func() (T, error), doc func(T) D) fiber.Handler {
	return func(c *fiber.Ctx) error { return replyXML(c, doc)(read()) }
}

// answerNamed is the handler of a read of the record the path parameter param names.
func answerNamed[T, D any](param string, read func(string) (T, error), doc func(T) D) fiber.Handler {
	return func(c *fiber.Ctx) error { return replyXML(c, doc)(read(pathParam(c, param))) }
}

// replyOK answers a write operation: its refusal, or the service's <status code="ok">.
func replyOK(c *fiber.Ctx, err error) error {
	if err != nil {
		return err
	}
	return sendOK(c)
}
