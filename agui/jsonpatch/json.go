package jsonpatch

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// MaxDepth bounds how deeply Decode follows nested arrays and objects.
const MaxDepth = 512

// Decode reads one JSON value, exactly: valid UTF-8, no name repeated in an
// object, nothing after the value, at most MaxDepth levels deep.
func Decode(data []byte) (Value, error) {
	if v, ok := build(data); ok {
		return v, nil
	}
	return decodeTokens(data)
}

// decodeTokens is Decode by the decoder's tokens: for what jsonscan cannot
// vouch for, and to say what is wrong.
func decodeTokens(data []byte) (Value, error) {
	dec := NewReader(data)
	defer dec.Close()
	v, err := dec.read() // every token read is copied
	if err != nil {
		return nil, err
	}
	if !dec.AtEnd() {
		return nil, errors.New("malformed JSON: data after the value")
	}
	return v, nil
}

// DecodeObject is Decode for a caller that also needs an object's members
// as written: when data is a JSON object Decode accepts, it is that
// object, and each member's value as it stands in data, in order; ok is
// false for anything else (Decode says why). One reading gives both.
func DecodeObject(data []byte) (object *Object, members [][]byte, ok bool) {
	dec := NewReader(data)
	defer dec.Close()
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, nil, false
	}
	members = make([][]byte, 0, 8)
	object, err := dec.object(func(start, end int64) {
		members = append(members, valueOf(data[start:end]))
	})
	if err != nil || !dec.AtEnd() {
		return nil, nil, false
	}
	return object, members, true
}

// valueOf is a member's value from what follows its name: white space
// and the colon skipped (no value starts with either).
func valueOf(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n' || b[0] == ':') {
		b = b[1:]
	}
	return b
}

// DecodeOps reads a JSON Patch document: an array of operations, Index
// numbering them as sent. It reads "op", "path" and "from" when they are
// strings and "value" whatever it is, and skips anything else: checking
// an operation's shape is the caller's (package agui checks it against
// the AG-UI schema first). Only malformed JSON is an error.
func DecodeOps(data []byte) ([]Op, error) {
	if ops, ok := buildOps(data); ok {
		return ops, nil
	}
	return decodeOpsTokens(data)
}

// decodeOpsTokens is DecodeOps by the decoder's tokens.
func decodeOpsTokens(data []byte) ([]Op, error) {
	dec := NewReader(data)
	defer dec.Close()
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return nil, errors.New("malformed JSON Patch: not an array")
	}
	var ops []Op
	for i := 0; dec.PeekKind() != ']'; i++ {
		op, err := readOp(dec, i)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, malformed(err)
	}
	if !dec.AtEnd() {
		return nil, errors.New("malformed JSON: data after the value")
	}
	return ops, nil
}

// opNames are RFC 6902's operations, shared rather than copied from each
// patch.
var opNames = []string{"add", "remove", "replace", "move", "copy", "test"}

func readOp(dec *Reader, index int) (Op, error) {
	op := Op{Index: index}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return op, errors.New("malformed JSON Patch: an operation is not an object")
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return op, malformed(err)
		}
		switch field := name.String(); { // compared only: not kept, so not allocated
		case field == "value":
			if op.Value, err = dec.read(); err != nil {
				return op, err
			}
			continue
		case dec.PeekKind() != '"' || (field != "op" && field != "path" && field != "from"):
			err = dec.SkipValue()
		default:
			var text string
			text, err = readText(&dec.Decoder)
			switch field {
			case "op":
				op.Op = text
			case "path":
				op.Path = text
			case "from":
				op.From = text
			}
		}
		if err != nil {
			return op, malformed(err)
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return op, malformed(err)
	}
	return op, nil
}

// readText reads a string; an operation's name is shared, not copied.
func readText(dec *jsontext.Decoder) (string, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return "", err
	}
	return opName(tok.String()), nil
}

// read reads the next value. An object's members and an array's items
// are gathered on the Reader's scratch stacks, then copied out at their
// size.
func (r *Reader) read() (Value, error) {
	tok, err := r.ReadToken()
	if err != nil {
		return nil, malformed(err)
	}
	switch tok.Kind() {
	case 'n':
		return nil, nil
	case 't', 'f':
		return tok.Bool(), nil
	case '"':
		return tok.String(), nil
	case '0':
		return Number(tok.String()), nil
	}
	if r.StackDepth() > MaxDepth {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", MaxDepth)
	}
	if tok.Kind() == '[' {
		values := len(r.values) // where this array's items start
		for r.PeekKind() != ']' {
			v, err := r.read()
			if err != nil {
				return nil, err
			}
			r.values = append(r.values, v)
		}
		if _, err := r.ReadToken(); err != nil {
			return nil, malformed(err)
		}
		return NewArray(pop(&r.values, values)), nil
	}
	object, err := r.object(nil)
	if err != nil {
		return nil, err
	}
	return object, nil
}

// object reads an object's members, its '{' read, up to and with its
// '}'; member, if set, is told where each member's value stands in the
// input, from the end of its name (the colon and white space before the
// value included).
func (r *Reader) object(member func(start, end int64)) (*Object, error) {
	names, values := len(r.names), len(r.values) // where this object's lists start
	for r.PeekKind() != '}' {
		quoted, err := r.ReadValue()
		if err != nil {
			return nil, malformed(err)
		}
		r.names = append(r.names, r.name(quoted)) // before the next read voids it
		start := r.InputOffset()
		v, err := r.read()
		if err != nil {
			return nil, err
		}
		r.values = append(r.values, v)
		if member != nil {
			member(start, r.InputOffset())
		}
	}
	if _, err := r.ReadToken(); err != nil {
		return nil, malformed(err)
	}
	return NewObject(pop(&r.names, names), pop(&r.values, values)), nil
}

// pop takes a stack's top from position from on, as a list of its own
// (nil when empty), and clears it from the stack.
func pop[T any](stack *[]T, from int) []T {
	top := (*stack)[from:]
	var list []T
	if len(top) > 0 {
		list = slices.Clone(top)
	}
	clear(top) // the pooled Reader keeps nothing alive
	*stack = (*stack)[:from]
	return list
}

func malformed(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("malformed JSON: %w", err)
}

// Append appends v to b as compact JSON.
func Append(b []byte, v Value) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if v {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case Number:
		return append(b, v...)
	case string:
		b, _ = jsontext.AppendQuote(b, v) // invalid UTF-8 is replaced, never refused
		return b
	case *Array:
		b = append(b, '[')
		for i, item := range v.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = Append(b, item)
		}
		return append(b, ']')
	case *Object:
		b = append(b, '{')
		for i, name := range v.names {
			if i > 0 {
				b = append(b, ',')
			}
			b, _ = jsontext.AppendQuote(b, name)
			b = append(b, ':')
			b = Append(b, v.values[i])
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("patch: %T is not a JSON value", v))
}

// Encode is v as compact JSON.
func Encode(v Value) []byte { return Append(nil, v) }
