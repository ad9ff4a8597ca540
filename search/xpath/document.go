package xpath

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/antchfx/xmlquery"
)

// Document is the tree Match evaluates for v, a value encoding/xml marshals: the same
// elements, attributes and text xml.Marshal would write, built directly instead of written and
// parsed again, which costs several times the evaluation itself. The struct tags it follows are
// encoding/xml's: XMLName, `name`, `name,attr`, `,chardata`, `,any`, omitempty, `-` and
// embedded structs; for anything else (a Marshaler, `a>b` paths, innerxml, comments) it falls
// back to xml.Marshal and xmlquery.Parse.
func Document(v any) (*xmlquery.Node, error) {
	doc := &xmlquery.Node{Type: xmlquery.DocumentNode}
	if err := addElement(doc, reflect.ValueOf(v), ""); err != nil {
		if err != errUnsupported {
			return nil, err
		}
		b, err := xml.Marshal(v)
		if err != nil {
			return nil, err
		}
		return xmlquery.Parse(bytes.NewReader(b))
	}
	return doc, nil
}

// errUnsupported says Document must take the long way.
var errUnsupported = fmt.Errorf("xpath: a shape Document does not build")

var (
	nameType      = reflect.TypeFor[xml.Name]()
	marshalerType = reflect.TypeFor[xml.Marshaler]()
	attrMarshaler = reflect.TypeFor[xml.MarshalerAttr]()
	textMarshaler = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()
)

// addElement adds v as an element of parent, named as encoding/xml names it (the XMLName
// field's tag, its value, then name, the field's tag).
func addElement(parent *xmlquery.Node, v reflect.Value, name string) error {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return nil
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			break
		}
		for i := range v.Len() {
			if err := addElement(parent, v.Index(i), name); err != nil {
				return err
			}
		}
		return nil
	case reflect.Struct:
		info, err := structInfo(v.Type())
		if err != nil {
			return err
		}
		if info.xmlName != "" {
			name = info.xmlName
		} else if info.nameIndex >= 0 {
			if local := v.Field(info.nameIndex).FieldByName("Local").String(); local != "" {
				name = local // read field by field: v may sit in an unexported embedded struct
			}
		}
		if name == "" {
			name = v.Type().Name()
		}
		el := &xmlquery.Node{Type: xmlquery.ElementNode, Data: name}
		xmlquery.AddChild(parent, el)
		return addFields(el, v, info)
	}
	if name == "" || v.Type().Implements(textMarshaler) {
		return errUnsupported
	}
	el := &xmlquery.Node{Type: xmlquery.ElementNode, Data: name}
	xmlquery.AddChild(parent, el)
	s, err := text(v)
	if err == nil && s != "" {
		xmlquery.AddChild(el, &xmlquery.Node{Type: xmlquery.TextNode, Data: s})
	}
	return err
}

// Field kinds of a struct, as encoding/xml reads their tags.
const (
	fieldElement = iota
	fieldAttr
	fieldText
	fieldAny
	fieldEmbedded
)

type fieldInfo struct {
	index int
	name  string
	kind  int
	omit  bool
}

type typeInfo struct {
	xmlName   string // the XMLName field's tag name
	nameIndex int    // the XMLName field, or -1
	fields    []fieldInfo
}

// typeInfos caches structInfo by type.
var typeInfos sync.Map

// structInfo reads the xml tags of struct type t once; errUnsupported for what Document leaves
// to encoding/xml.
func structInfo(t reflect.Type) (*typeInfo, error) {
	if v, ok := typeInfos.Load(t); ok {
		return v.(*typeInfo), nil
	}
	if t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) || t.Implements(textMarshaler) {
		return nil, errUnsupported
	}
	info := &typeInfo{nameIndex: -1}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("xml")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, flags, _ := strings.Cut(tag, ",")
		if f.Name == "XMLName" {
			if f.Type != nameType {
				return nil, errUnsupported
			}
			info.xmlName, info.nameIndex = name, i
			continue
		}
		fi := fieldInfo{index: i, name: name, omit: has(flags, "omitempty")}
		if fi.name == "" {
			fi.name = f.Name
		}
		switch {
		case f.Anonymous && tag == "":
			fi.kind = fieldEmbedded
		case strings.Contains(name, ">"):
			return nil, errUnsupported
		case has(flags, "attr"):
			if f.Type.Implements(attrMarshaler) || reflect.PointerTo(f.Type).Implements(attrMarshaler) {
				return nil, errUnsupported
			}
			fi.kind = fieldAttr
		case has(flags, "chardata"):
			fi.kind = fieldText
		case has(flags, "any"):
			fi.kind = fieldAny
		case flags == "" || flags == "omitempty":
			fi.kind = fieldElement
		default:
			return nil, errUnsupported
		}
		info.fields = append(info.fields, fi)
	}
	typeInfos.Store(t, info)
	return info, nil
}

// addFields adds the attributes, text and child elements of struct v to el, in field order.
func addFields(el *xmlquery.Node, v reflect.Value, info *typeInfo) error {
	for _, f := range info.fields {
		fv := v.Field(f.index)
		if f.omit && empty(fv) {
			continue
		}
		if f.kind == fieldEmbedded || f.kind == fieldAttr {
			for fv.Kind() == reflect.Pointer && !fv.IsNil() {
				fv = fv.Elem()
			}
			if fv.Kind() == reflect.Pointer {
				continue
			}
		}
		var err error
		switch f.kind {
		case fieldEmbedded:
			if fv.Kind() != reflect.Struct {
				return errUnsupported
			}
			var sub *typeInfo
			if sub, err = structInfo(fv.Type()); err == nil {
				err = addFields(el, fv, sub)
			}
		case fieldAttr:
			var s string
			if s, err = text(fv); err == nil && !(f.omit && s == "") {
				el.Attr = append(el.Attr, xmlquery.Attr{Name: xml.Name{Local: f.name}, Value: s})
			}
		case fieldText:
			var s string
			if s, err = text(fv); err == nil && s != "" {
				xmlquery.AddChild(el, &xmlquery.Node{Type: xmlquery.TextNode, Data: s})
			}
		case fieldAny:
			err = addElement(el, fv, "")
		default:
			err = addElement(el, fv, f.name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func has(flags, flag string) bool {
	for _, f := range strings.Split(flags, ",") {
		if f == flag {
			return true
		}
	}
	return false
}

// empty is encoding/xml's omitempty test: a struct is never empty.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Struct:
		return false
	}
	return v.IsZero()
}

// text is a simple value as encoding/xml writes it.
func text(v reflect.Value) (string, error) {
	switch v.Kind() {
	case reflect.String:
		return v.String(), nil
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, v.Type().Bits()), nil
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return string(v.Bytes()), nil
		}
	}
	return "", errUnsupported
}
