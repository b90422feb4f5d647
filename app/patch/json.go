package patch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// MaxDepth bounds how deeply Decode follows nested arrays and objects.
const MaxDepth = 512

// Decode reads one JSON value, exactly: valid UTF-8, no name repeated in an
// object, nothing after the value, at most MaxDepth levels deep.
func Decode(data []byte) (Value, error) {
	dec := decoders.Get().(*jsontext.Decoder)
	defer decoders.Put(dec)
	dec.Reset(bytes.NewBuffer(data)) // read in place; every token read is copied
	v, err := read(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, errors.New("malformed JSON: data after the value")
	}
	return v, nil
}

// decoders are kept for reuse: making one's buffers costs more than
// reading a patch's small values.
var decoders = sync.Pool{New: func() any { return new(jsontext.Decoder) }}

// read reads the next value from dec.
func read(dec *jsontext.Decoder) (Value, error) {
	tok, err := dec.ReadToken()
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
	if dec.StackDepth() > MaxDepth {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", MaxDepth)
	}
	if tok.Kind() == '[' {
		var items []Value
		for dec.PeekKind() != ']' {
			v, err := read(dec)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, malformed(err)
		}
		return NewArray(items), nil
	}
	var names []string
	var values []Value
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, malformed(err)
		}
		name := tok.String() // before the next read voids the token
		v, err := read(dec)
		if err != nil {
			return nil, err
		}
		names, values = append(names, name), append(values, v)
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, malformed(err)
	}
	return NewObject(names, values), nil
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
