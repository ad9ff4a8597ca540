package values

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer words the library's messages for the rare keyword this file does not word itself.
var printer = message.NewPrinter(language.English)

// issue is one leaf violation before it is worded.
type issue struct {
	loc  []string // instance location, unescaped tokens
	rule string
	msg  string
	want []string // for rule "type": the types wanted, so anyOf branches can be joined
}

// flatten turns the validator's error tree — allOf, anyOf and $ref nodes with the real failures
// at the leaves — into one violation per leaf: sorted by path, duplicates (the same type
// failure seen through both halves of an allOf) removed. An anyOf whose every branch failed on the
// value's type becomes one "want string or null"; otherwise only the branches that matched the
// type and failed further in are shown, because those say what is wrong with the value.
func flatten(root *jsonschema.ValidationError, doc any) []Violation {
	var issues []issue
	collect(root, &issues)
	out := make([]Violation, 0, len(issues))
	for _, is := range issues {
		msg := is.msg
		if is.rule == "type" {
			msg = "got " + describeValue(lookup(doc, is.loc)) + ", want " + strings.Join(is.want, " or ")
		}
		out = append(out, Violation{Path: pointer(is.loc), Rule: is.rule, Message: msg, tokens: is.loc})
	}
	slices.SortFunc(out, compareViolations)
	return slices.CompactFunc(out, func(a, b Violation) bool {
		return a.Path == b.Path && a.Rule == b.Rule && a.Message == b.Message
	})
}

// collect appends e's leaf failures to issues.
func collect(e *jsonschema.ValidationError, issues *[]issue) {
	switch e.ErrorKind.(type) {
	case *kind.AnyOf:
		alternatives(e, issues)
		return
	case *kind.OneOf:
		if len(e.Causes) > 0 { // no branch matched; several matching is a leaf
			alternatives(e, issues)
			return
		}
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, issues)
		}
		return
	}
	*issues = append(*issues, leaf(e)...)
}

// alternatives handles an anyOf or oneOf none of whose branches matched.
func alternatives(e *jsonschema.ValidationError, issues *[]issue) {
	var want []string
	var deeper []issue
	for _, branch := range e.Causes {
		var got []issue
		collect(branch, &got)
		if len(got) == 1 && got[0].rule == "type" && slices.Equal(got[0].loc, e.InstanceLocation) {
			want = append(want, got[0].want...)
			continue
		}
		deeper = append(deeper, got...)
	}
	if len(deeper) > 0 {
		*issues = append(*issues, deeper...)
		return
	}
	*issues = append(*issues, issue{loc: e.InstanceLocation, rule: "type", want: want})
}

// leaf words one failed keyword; a required or additionalProperties failure becomes one issue per
// key, located at the key itself.
func leaf(e *jsonschema.ValidationError) []issue {
	loc := e.InstanceLocation
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return []issue{{loc: loc, rule: "type", want: k.Want}}
	case *kind.Required:
		out := make([]issue, 0, len(k.Missing))
		for _, name := range k.Missing {
			out = append(out, issue{loc: child(loc, name), rule: "required", msg: fmt.Sprintf("missing required key %q", name)})
		}
		return out
	case *kind.AdditionalProperties:
		out := make([]issue, 0, len(k.Properties))
		for _, name := range k.Properties {
			out = append(out, issue{loc: child(loc, name), rule: "additionalProperties", msg: fmt.Sprintf("key %q is not allowed here", name)})
		}
		return out
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = literal(w)
		}
		return []issue{{loc: loc, rule: "enum", msg: "got " + literal(k.Got) + ", want one of " + strings.Join(want, ", ")}}
	case *kind.Minimum:
		return []issue{{loc: loc, rule: "minimum", msg: "got " + ratString(k.Got) + ", want at least " + ratString(k.Want)}}
	case *kind.Maximum:
		return []issue{{loc: loc, rule: "maximum", msg: "got " + ratString(k.Got) + ", want at most " + ratString(k.Want)}}
	}
	rule := "schema"
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		rule = kp[0]
	}
	return []issue{{loc: loc, rule: rule, msg: e.ErrorKind.LocalizedString(printer)}}
}

// child is loc extended by one token, never sharing loc's backing array.
func child(loc []string, tok string) []string {
	return append(slices.Clip(loc), tok)
}

// ratString prints a number the validator compared as a big.Rat: 101, or 1.5.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// lookup finds the value at loc in doc (nil when it is not there).
func lookup(doc any, loc []string) any {
	v := doc
	for _, tok := range loc {
		switch c := v.(type) {
		case map[string]any:
			v = c[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

// describeValue names a value's JSON type and, for a scalar, shows it: string "yes", number 1.5,
// null, object.
func describeValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean " + strconv.FormatBool(v)
	case json.Number:
		return "number " + string(v)
	case string:
		return "string " + literal(v)
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// maxShown is how many characters of a string a message quotes.
const maxShown = 60

// literal shows a scalar as JSON would, a long string cut short.
func literal(v any) string {
	switch v := v.(type) {
	case string:
		if utf8.RuneCountInString(v) > maxShown {
			v = string([]rune(v)[:maxShown]) + "…"
		}
		return strconv.Quote(v)
	case nil:
		return "null"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprint(v)
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointer renders loc as a JSON pointer (RFC 6901): "~" is "~0", "/" is "~1".
func pointer(loc []string) string {
	var b strings.Builder
	for _, tok := range loc {
		b.WriteByte('/')
		b.WriteString(pointerEscaper.Replace(tok))
	}
	return b.String()
}

// compareViolations orders by path — array indexes by number, so /2 comes before /10 — then rule,
// then message.
func compareViolations(a, b Violation) int {
	for i := 0; i < len(a.tokens) && i < len(b.tokens); i++ {
		if c := compareTokens(a.tokens[i], b.tokens[i]); c != 0 {
			return c
		}
	}
	if c := len(a.tokens) - len(b.tokens); c != 0 {
		return c
	}
	if c := strings.Compare(a.Rule, b.Rule); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

func compareTokens(a, b string) int {
	na, errA := strconv.Atoi(a)
	nb, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return cmp.Compare(na, nb)
	}
	return strings.Compare(a, b)
}
