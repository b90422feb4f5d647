package agui

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui/internal/jsonscan"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Enforcement (basic/processing): every event is read against the schema.
// A described value that is wrong is fatal; material the schema does not
// describe is removed with a warning, and where it sits decides what goes:
//
//   - an optional member: the member;
//   - a required member: the object holding it, and so on up;
//   - an item of a list: the item;
//   - the event itself: the event.

// malformed is a described value the schema rejects: fatal.
type malformed struct{ path, reason string }

func (m *malformed) Error() string {
	if m.path == "" {
		return "the event " + m.reason
	}
	return m.path + ": " + m.reason
}

// removal is unrecognised material taken out of a value.
type removal struct{ path, reason string }

// checker reads values against specs and collects what it removes.
type checker struct{ removals []removal }

// place is where a value sits: its container's JSON Pointer and its own
// reference token (a member's name, an item's index). They are joined
// only when a reason or a deeper value needs the pointer: reading a valid
// member builds no string.
type place struct{ parent, token string }

func (p place) String() string { return p.parent + "/" + jsonpatch.EscapeToken(p.token) }

// object checks the members of an object against d. It returns the reason
// the whole object must go, if it must.
func (c *checker) object(members []member, d *def, path string) (string, error) {
	mark := len(c.removals)
	for _, m := range members {
		f, known := d.field(m.name)
		at := place{path, m.name}
		if !known {
			if !d.open {
				c.removals = append(c.removals, removal{at.String(), fmt.Sprintf("%s has no member %q in AG-UI", d.name, m.name)})
			}
			continue
		}
		gone, err := c.value(m.raw, &f.spec, at)
		if err != nil {
			return "", err
		}
		if gone == "" {
			continue
		}
		if f.required {
			c.removals = c.removals[:mark] // the object goes whole
			return fmt.Sprintf("its required %s is %s", f.name, gone), nil
		}
		c.removals = append(c.removals, removal{at.String(), gone})
	}
	for i := range d.fields {
		if f := &d.fields[i]; f.required && !slices.ContainsFunc(members, func(m member) bool { return m.name == f.name }) {
			return "", &malformed{path + "/" + f.name, "is required"}
		}
	}
	return "", nil
}

// value checks one value against s. It returns why the value is
// unrecognised material its container must remove ("" when it stays), or
// why it is malformed.
func (c *checker) value(raw []byte, s *spec, at place) (string, error) {
	k := jsontext.Value(raw).Kind()
	want := func(what string) error { return &malformed{at.String(), "must be " + what + ", not " + kindName(k)} }
	switch s.kind {
	case kAny:
		return "", nil
	case kNotNull:
		if k == 'n' {
			return "", &malformed{at.String(), "must not be null (an absent value is left out)"}
		}
		return "", nil
	case kObject:
		if k != '{' {
			return "", want("an object")
		}
		return "", nil
	case kBool:
		if k != 't' && k != 'f' {
			return "", want("a boolean")
		}
		return "", nil
	case kInteger, kCount:
		if k != '0' {
			return "", want("an integer")
		}
		return "", checkInteger(string(raw), s.kind == kCount, at)
	case kString, kConst, kEnum, kPointer:
		if k != '"' {
			return "", want("a string")
		}
		text := ""
		if s.kind != kString {
			text = stringOf(raw)
		}
		switch s.kind {
		case kConst:
			if text != s.values[0] {
				return "", &malformed{at.String(), fmt.Sprintf("must be %q, not %q", s.values[0], bound(text))}
			}
		case kEnum:
			if !slices.Contains(s.values, text) {
				return fmt.Sprintf("an unrecognised value %q (1.0 has %s)", bound(text), strings.Join(s.values, ", ")), nil
			}
		case kPointer:
			if err := jsonpatch.CheckPointer(text); err != nil {
				return "", &malformed{at.String(), fmt.Sprintf("%q is not a JSON Pointer: %v", bound(text), err)}
			}
		}
		return "", nil
	case kTextOr:
		if k == '"' {
			return "", nil
		}
		if k != '[' {
			return "", want("a string or an array")
		}
		return c.array(raw, s.item, 0, at)
	case kArray:
		if k != '[' {
			return "", want("an array")
		}
		return c.array(raw, s.item, s.min, at)
	case kDef, kUnion:
		if k != '{' {
			return "", want("an object")
		}
		members := memberList(raw) // valid JSON already
		path := at.String()
		d := s.def
		if s.kind == kUnion {
			var gone string
			var err error
			if d, gone, err = pick(members, s.union, path); d == nil {
				return gone, err
			}
		}
		return c.object(members, d, path)
	}
	panic("protocol: a spec of unknown kind")
}

// pick finds the union member an object is, by its discriminator.
func pick(members []member, u *union, path string) (*def, string, error) {
	i := slices.IndexFunc(members, func(m member) bool { return m.name == u.tag })
	if i < 0 {
		return nil, "", &malformed{path + "/" + u.tag, "is required"}
	}
	raw := members[i].raw
	if k := jsontext.Value(raw).Kind(); k != '"' {
		return nil, "", &malformed{path + "/" + u.tag, "must be a string, not " + kindName(k)}
	}
	tag := stringOf(raw)
	d, ok := u.members[tag]
	if !ok {
		return nil, fmt.Sprintf("an unrecognised %s %s %q", u.name, u.tag, bound(tag)), nil
	}
	return d, "", nil
}

// array checks each item; an unrecognised item is dropped, and the list
// must still hold at least min.
func (c *checker) array(raw []byte, item *spec, min int, list place) (string, error) {
	if len(bytes.TrimSpace(raw[1:len(raw)-1])) == 0 { // [], most lists of an input
		if min > 0 {
			return "", &malformed{list.String(), fmt.Sprintf("must hold at least %d item", min)}
		}
		return "", nil
	}
	kept, i := 0, 0
	var path string // the list's pointer, made for its first item
	// The list was read whole before: a walk over it, not a second decoder.
	for v := range jsonscan.Elements(raw) {
		if path == "" {
			path = list.String()
		}
		at := place{path, strconv.Itoa(i)}
		i++
		gone, err := c.value(v, item, at)
		if err != nil {
			return "", err
		}
		if gone != "" {
			c.removals = append(c.removals, removal{at.String(), gone})
			continue
		}
		kept++
	}
	if kept < min {
		return "", &malformed{list.String(), fmt.Sprintf("must hold at least %d item", min)}
	}
	return "", nil
}

// checkInteger: an integer (1.0 is one, 1.5 is not) within ±(2^53-1),
// where JSON numbers survive a round trip; not negative for a count.
func checkInteger(text string, count bool, at place) error {
	v, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil || math.Abs(v) > 1<<53-1:
		return &malformed{at.String(), "must be an integer of at most 9007199254740991 in magnitude"}
	case v != math.Trunc(v):
		return &malformed{at.String(), fmt.Sprintf("must be an integer, not %s", text)}
	case count && v < 0:
		return &malformed{at.String(), "must not be negative"}
	}
	return nil
}

// without is data re-encoded without the removed values (in document
// order).
func without(data []byte, removals []removal) []byte {
	dec := jsonpatch.NewReader(data)
	defer dec.Close()
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	gone := make(map[string]bool, len(removals))
	for _, r := range removals {
		gone[r.path] = true
	}
	copyWithout(&dec.Decoder, enc, "", gone)
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// copyWithout copies one value, leaving out the removed paths inside it.
// Errors cannot happen: the data was read once already.
func copyWithout(dec *jsontext.Decoder, enc *jsontext.Encoder, path string, gone map[string]bool) {
	inside := false
	for p := range gone {
		if strings.HasPrefix(p, path+"/") {
			inside = true
			break
		}
	}
	if k := dec.PeekKind(); !inside || (k != '{' && k != '[') {
		v, _ := dec.ReadValue()
		enc.WriteValue(v)
		return
	}
	open, _ := dec.ReadToken()
	enc.WriteToken(open)
	for i := 0; dec.PeekKind() != '}' && dec.PeekKind() != ']'; i++ {
		token := strconv.Itoa(i)
		var name jsontext.Token
		if open.Kind() == '{' {
			name, _ = dec.ReadToken()
			token = jsonpatch.EscapeToken(name.String())
		}
		at := path + "/" + token
		if gone[at] {
			dec.SkipValue()
			continue
		}
		if open.Kind() == '{' {
			enc.WriteToken(name)
		}
		copyWithout(dec, enc, at, gone)
	}
	end, _ := dec.ReadToken()
	enc.WriteToken(end)
}
