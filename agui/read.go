package agui

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui/internal/jsonscan"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Reading (basic/transports): one event's JSON, as a transport's reader
// hands it over (package sse, or package proto, which decodes the binary
// transport to the same JSON), becomes its type and top-level members,
// or the rule it breaks before anything else can be judged: the event's
// size and nesting (Limit), not one JSON object (NotAnEvent), no string
// type (Malformed). The stages after it (consumer.go) only judge.

// read reads one event.
func read(data []byte) (Type, []member, Rule, error) {
	if len(data) > MaxEventBytes {
		return "", nil, Limit, fmt.Errorf("an event of %d bytes is over the %d MiB bound", len(data), MaxEventBytes>>20)
	}
	members, err := readTop(data)
	if err != nil {
		return "", nil, NotAnEvent, fmt.Errorf("the event is %v", err)
	}
	if deeperThan(data, jsonpatch.MaxDepth+1) { // the event's own object, and a value in it
		return "", nil, Limit, fmt.Errorf("a value in the event is nested deeper than %d levels", jsonpatch.MaxDepth)
	}
	t, err := typeOf(members)
	if err != nil {
		return "", nil, Malformed, err
	}
	return t, members, "", nil
}

// typeOf reads the discriminator every event carries.
func typeOf(members []member) (Type, error) {
	for _, m := range members {
		if m.name == "type" {
			if len(m.raw) == 0 || m.raw[0] != '"' {
				return "", &malformed{"/type", "must be a string"}
			}
			return Type(stringOf(m.raw)), nil
		}
	}
	return "", &malformed{"/type", "is required"}
}

// readTop reads a JSON object's members, each as its raw JSON within data.
// Everything inside is checked for being valid JSON: valid UTF-8, no name
// given twice in an object; unless opts say otherwise (checked).
func readTop(data []byte, opts ...jsontext.Options) ([]member, error) {
	if members, ok := split(data); ok {
		return members, nil
	}
	return decodeTop(data, opts...)
}

// decodeTop is readTop by the decoder: for what split cannot vouch for,
// and to say what is wrong.
func decodeTop(data []byte, opts ...jsontext.Options) ([]member, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("not valid JSON: empty")
	}
	dec := jsonpatch.NewReader(data, opts...)
	defer dec.Close()
	if k := dec.PeekKind(); k != '{' {
		if err := dec.SkipValue(); err != nil || k == 0 {
			return nil, syntaxError(err)
		}
		return nil, fmt.Errorf("not a JSON object but %s", kindName(k))
	}
	dec.ReadToken()
	var room [16]member // most objects fit: the list is then made once, at its size
	members := room[:0]
	for dec.PeekKind() != '}' {
		name, err := dec.ReadValue()
		if err != nil {
			return nil, syntaxError(err)
		}
		m := member{name: stringOf(name)}
		if m.raw, err = dec.ReadValue(); err != nil {
			return nil, syntaxError(err)
		}
		members = append(members, m)
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, syntaxError(err)
	}
	if !dec.AtEnd() {
		return nil, errors.New("not one JSON value: data follows the object")
	}
	return slices.Clone(members), nil
}

// memberList is the members of an object read whole before, in order: a
// walk over its bytes, not a second decoder's reading.
func memberList(object []byte) []member {
	var room [16]member // most objects fit: the list is then made once, at its size
	list := room[:0]
	for name, raw := range jsonscan.Members(object) {
		list = append(list, member{name: stringOf(name), raw: raw})
	}
	return slices.Clone(list)
}

// memberOf is one member of a JSON object read whole before, as its raw
// JSON; nil when the object has no such member.
func memberOf(object []byte, name string) []byte {
	for quoted, raw := range jsonscan.Members(object) {
		if text, ok := plain(quoted); ok && string(text) == name || !ok && stringOf(quoted) == name {
			return raw
		}
	}
	return nil
}

// checked reads JSON already read whole, and found valid then: its UTF-8
// and its names are not checked again.
var checked = []jsontext.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}

// deeperThan says whether valid JSON nests deeper than most levels. Data
// with no more than most brackets cannot: counting them (a vector
// search) spares the walk for nearly every event.
func deeperThan(data []byte, most int) bool {
	if bytes.Count(data, []byte("{"))+bytes.Count(data, []byte("[")) <= most {
		return false
	}
	return depth(data) > most
}

// depth is how deeply valid JSON nests its arrays and objects. Every
// value the engine holds (a state, metadata, a message, an operation's
// value) is at most jsonpatch.MaxDepth deep: bounding the event bounds them
// all, before any of them is read.
func depth(data []byte) int {
	deepest, level, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			level++
			deepest = max(deepest, level)
		case c == ']' || c == '}':
			level--
		}
	}
	return deepest
}

func syntaxError(err error) error {
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	msg := err.Error()
	if strings.Contains(msg, "exceeded max depth") {
		return errors.New("not valid JSON: nested deeper than 10,000 levels")
	}
	return fmt.Errorf("not valid JSON: %s", strings.TrimPrefix(msg, "jsontext: "))
}

// stringOf is a JSON string's value, "" for any other value. A string the
// schema names is shared rather than copied: reading one allocates nothing.
func stringOf(raw []byte) string {
	if s, ok := schemaStrings.find(raw); ok {
		return s
	}
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	if text, ok := plain(raw); ok {
		return string(text) // nothing to unquote: one copy, not two
	}
	b, err := jsontext.AppendUnquote(nil, raw)
	if err != nil {
		return ""
	}
	return string(b)
}

// plain is a JSON string's text when it has nothing to unquote: no
// escape, and nothing a string may not hold as it stands.
func plain(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[len(raw)-1] != '"' {
		return nil, false
	}
	text := raw[1 : len(raw)-1]
	for _, c := range text {
		if c < 0x20 || c == '"' || c == '\\' {
			return nil, false
		}
	}
	return text, utf8.Valid(text)
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

// bound cuts a text quoted in a reason, so that no event can make a
// reason long.
func bound(s string) string {
	const most = 80
	if len(s) <= most {
		return s
	}
	cut := most
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// Unreadable judges the next event as one its transport's reader could
// not read as an event at all (a binary frame that does not decode, say
// why): the stream breaks NotAnEvent there, as an SSE event whose data is
// not a JSON object does.
func (c *Consumer) Unreadable(why string) Judgement {
	s := Judgement{Index: c.next, Change: StateChange{State: c.state}}
	c.next++
	if c.rejected != nil {
		s.Violation = c.rejected
		return s
	}
	s.fail(NotAnEvent, "the event is %s", why)
	c.rejected = s.Violation
	s.Run = c.lastRun()
	return s
}
