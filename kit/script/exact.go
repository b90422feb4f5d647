package script

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Exact reading. What users hand the kit (a script, an answer file, a
// run input) is read as the engine reads an event: names are compared as
// written ("Event" is not "event"), a name given twice is refused, and
// every error says its line and column. Values are kept as written: an
// event inside a script may be any JSON, repeated names included, since
// a script may mean to replay a fault.

// Doc is a file being read: its bytes, for the lines and columns of
// errors.
type Doc []byte

// Member is one Member of an object: its name, its value as written,
// and where the value starts in the file.
type Member struct {
	Name  string
	Value jsontext.Value
	At    int // the offset of the value in the file
}

// Item is one item of an array, and where it starts.
type Item struct {
	Value jsontext.Value
	At    int
}

// ErrorAt is an error at an offset of the file.
func (d Doc) ErrorAt(offset int, format string, args ...any) *Error {
	line, column := d.position(offset)
	return &Error{Line: line, Column: column, Reason: fmt.Sprintf(format, args...)}
}

// position is the line and column (in characters, from 1) of an offset.
func (d Doc) position(offset int) (line, column int) {
	offset = min(max(offset, 0), len(d))
	start := bytes.LastIndexByte(d[:offset], '\n') + 1
	return 1 + bytes.Count(d[:offset], []byte("\n")), 1 + utf8.RuneCount(d[start:offset])
}

// lineCounter gives the lines of offsets met in order, counting each
// line end once: a file's every frame placed by position, which counts
// from the start, took time growing with the square of the frames.
type lineCounter struct {
	d        Doc
	at, line int // the last offset placed, and its line (0: none yet)
}

// lineAt is the line of offset, from 1.
func (c *lineCounter) lineAt(offset int) int {
	offset = min(max(offset, 0), len(c.d))
	if c.line == 0 || offset < c.at {
		c.at, c.line = 0, 1
	}
	c.line += bytes.Count(c.d[c.at:offset], []byte("\n"))
	c.at = offset
	return c.line
}

// decoder reads raw JSON found at base in the file.
func decoder(raw []byte) *jsontext.Decoder {
	return jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}

// Sendable checks a member's value for going out in a request: valid
// UTF-8 and no name twice in an object, which a file may break (decoder
// allows both, to read hostile events) and no AG-UI peer accepts.
func (d Doc) Sendable(m Member) *Error {
	dec := jsontext.NewDecoder(bytes.NewReader(m.Value))
	if _, err := dec.ReadValue(); err != nil {
		e := d.syntax(err, m.At, dec)
		e.Reason = m.Name + ": " + e.Reason
		return e
	}
	return nil
}

// syntax places a decoder's error in the file.
func (d Doc) syntax(err error, base int, dec *jsontext.Decoder) *Error {
	offset := base + int(dec.InputOffset())
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		offset = base + int(se.ByteOffset)
		err = se.Err
	}
	if err == io.EOF || err == nil {
		err = io.ErrUnexpectedEOF
	}
	return d.ErrorAt(offset, "invalid JSON: %s", strings.TrimPrefix(err.Error(), "jsontext: "))
}

// Object reads the JSON object raw, found at base in the file: its
// members in order, each name once. what names the object in errors
// ("a script", "a frame").
func (d Doc) Object(raw []byte, base int, what string) ([]Member, *Error) {
	members, err := d.Members(raw, base, what)
	if err != nil {
		return nil, err
	}
	return members, d.once(members, what)
}

// once refuses a name given twice.
func (d Doc) once(members []Member, what string) *Error {
	for i, m := range members {
		for _, earlier := range members[:i] {
			if earlier.Name == m.Name {
				line, column := d.position(earlier.At)
				return d.ErrorAt(m.At, "%s gives %q twice (first at line %d, column %d)", what, m.Name, line, column)
			}
		}
	}
	return nil
}

// Members reads an object's members, in order, a name given twice
// included: an event may repeat one.
func (d Doc) Members(raw []byte, base int, what string) ([]Member, *Error) {
	dec := decoder(raw)
	if k := dec.PeekKind(); k != '{' {
		if k == 0 {
			_, err := dec.ReadToken()
			return nil, d.syntax(err, base, dec)
		}
		return nil, d.ErrorAt(base+leading(raw), "%s is a JSON object, not %s", what, kindName(k))
	}
	dec.ReadToken()
	var members []Member
	for dec.PeekKind() != '}' {
		token, err := dec.ReadToken()
		if err != nil {
			return nil, d.syntax(err, base, dec)
		}
		name := token.String() // valid until the next read
		value, err := dec.ReadValue()
		if err != nil {
			return nil, d.syntax(err, base, dec)
		}
		end := int(dec.InputOffset()) // the value, as the decoder's buffer holds it, is valid only until its next read
		members = append(members, Member{Name: name, Value: raw[end-len(value) : end], At: base + end - len(value)})
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, d.syntax(err, base, dec)
	}
	return members, d.end(dec, base)
}

// Array reads the JSON array raw, found at base in the file.
func (d Doc) Array(raw []byte, base int, what string) ([]Item, *Error) {
	dec := decoder(raw)
	if k := dec.PeekKind(); k != '[' {
		if k == 0 {
			_, err := dec.ReadToken()
			return nil, d.syntax(err, base, dec)
		}
		return nil, d.ErrorAt(base+leading(raw), "%s is a JSON array, not %s", what, kindName(k))
	}
	dec.ReadToken()
	var items []Item
	for dec.PeekKind() != ']' {
		value, err := dec.ReadValue()
		if err != nil {
			return nil, d.syntax(err, base, dec)
		}
		end := int(dec.InputOffset()) // the value, as the decoder's buffer holds it, is valid only until its next read
		items = append(items, Item{Value: raw[end-len(value) : end], At: base + end - len(value)})
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, d.syntax(err, base, dec)
	}
	return items, d.end(dec, base)
}

// leading is how much white space raw starts with.
func leading(raw []byte) int { return len(raw) - len(bytes.TrimLeft(raw, " \t\r\n")) }

// end refuses anything but white space after a value.
func (d Doc) end(dec *jsontext.Decoder, base int) *Error {
	at := base + int(dec.InputOffset())
	if k := dec.PeekKind(); k != 0 {
		return d.ErrorAt(at, "invalid JSON: more after the value")
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return d.syntax(err, base, dec)
	}
	return nil
}

// Only refuses a Member other than the names given: a misspelt one would
// go unheeded. A name that differs from one of them by case alone is
// named as such.
func (d Doc) Only(members []Member, what string, names ...string) *Error {
	for _, m := range members {
		known := false
		for _, n := range names {
			if m.Name == n {
				known = true
				break
			}
		}
		if known {
			continue
		}
		for _, n := range names {
			if strings.EqualFold(m.Name, n) {
				return d.ErrorAt(m.At, "%s has no member %q: names are case-sensitive (%q)", what, m.Name, n)
			}
		}
		return d.ErrorAt(m.At, "%s has no member %q (it has %s)", what, m.Name, strings.Join(quoteAll(names), ", "))
	}
	return nil
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}

// text reads a Member that must be a string.
func (d Doc) Text(m Member) (string, *Error) {
	if m.Value.Kind() != '"' {
		return "", d.ErrorAt(m.At, "%s must be a string, not %s", m.Name, kindName(m.Value.Kind()))
	}
	s, err := jsontext.AppendUnquote(nil, m.Value)
	if err != nil {
		return "", d.ErrorAt(m.At, "%s: %v", m.Name, err)
	}
	return string(s), nil
}

func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "nothing"
}

// find is the Member of a name, nil when there is none.
func Find(members []Member, name string) *Member {
	for i := range members {
		if members[i].Name == name {
			return &members[i]
		}
	}
	return nil
}
