package jsonpatch

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui/internal/jsonscan"
)

// Reading without tokens: a value jsonscan.Valid vouches for is made in a
// walk over its bytes, the decoder's checks done and its tokens not
// needed. Decoding state snapshots is the largest part of judging a
// stream; the walk takes about four fifths of the decoder's time
// (BenchmarkDecode), the allocations being most of what is left.
// FuzzBuild holds the walk to the decoder.

// build is Decode by the walk; ok is false when jsonscan cannot vouch
// for data.
func build(data []byte) (v Value, ok bool) {
	if !jsonscan.Valid(data) {
		return nil, false
	}
	r := readers.Get().(*Reader)
	defer r.Close()
	v, _ = r.value(data, jsonscan.PastSpace(data, 0))
	return v, true
}

// value makes the value that starts at i in data, which jsonscan found
// valid, and says where it ends. (No name in it holds an escape: jsonscan
// gives up on those.)
func (r *Reader) value(data []byte, i int) (Value, int) {
	switch data[i] {
	case '{':
		names, values := len(r.names), len(r.values) // where this object's lists start
		for i = jsonscan.PastSpace(data, i+1); data[i] != '}'; i = after(data, i) {
			end := jsonscan.PastString(data, i)
			r.names = append(r.names, r.name(data[i:end]))
			var v Value
			v, i = r.value(data, jsonscan.PastSpace(data, jsonscan.PastSpace(data, end)+1)) // past ':'
			r.values = append(r.values, v)
		}
		return NewObject(pop(&r.names, names), pop(&r.values, values)), i + 1
	case '[':
		values := len(r.values)
		for i = jsonscan.PastSpace(data, i+1); data[i] != ']'; i = after(data, i) {
			var v Value
			v, i = r.value(data, i)
			r.values = append(r.values, v)
		}
		return NewArray(pop(&r.values, values)), i + 1
	case '"':
		end := jsonscan.PastString(data, i)
		return text(data[i:end]), end
	case 't':
		return true, i + len("true")
	case 'f':
		return false, i + len("false")
	case 'n':
		return nil, i + len("null")
	}
	end := jsonscan.PastValue(data, i)
	return Number(data[i:end]), end
}

// after is where the next member or item starts, or the closing bracket,
// from the end of a value at i.
func after(data []byte, i int) int {
	if i = jsonscan.PastSpace(data, i); data[i] == ',' {
		i = jsonscan.PastSpace(data, i+1)
	}
	return i
}

// text is a valid JSON string's text.
func text(quoted []byte) string { return string(unquoted(quoted)) }

// unquoted is a valid JSON string's text, within quoted when it has no
// escape.
func unquoted(quoted []byte) []byte {
	body := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return body
	}
	b, _ := jsontext.AppendUnquote(nil, quoted)
	return b
}

// opName is an operation's name, shared rather than copied when it is
// one of RFC 6902's.
func opName[T string | []byte](name T) string {
	for _, op := range opNames {
		if string(name) == op {
			return op
		}
	}
	return string(name)
}

// buildOps is DecodeOps by the walk; ok is false when jsonscan cannot
// vouch for data, or it is not an array of objects (the decoder says so).
func buildOps(data []byte) ([]Op, bool) {
	if !jsonscan.Valid(data) {
		return nil, false
	}
	r := readers.Get().(*Reader)
	defer r.Close()
	return r.ops(data)
}

// ops makes the operations of a patch jsonscan found valid.
func (r *Reader) ops(data []byte) (ops []Op, ok bool) {
	if data[jsonscan.PastSpace(data, 0)] != '[' {
		return nil, false
	}
	for item := range jsonscan.Elements(data) {
		if item[0] != '{' {
			return nil, false
		}
		op := Op{Index: len(ops)}
		for name, value := range jsonscan.Members(item) {
			switch field := unquoted(name); {
			case string(field) == "value":
				op.Value, _ = r.value(value, 0)
			case value[0] != '"':
			case string(field) == "op":
				op.Op = opName(unquoted(value))
			case string(field) == "path":
				op.Path = text(value)
			case string(field) == "from":
				op.From = text(value)
			}
		}
		ops = append(ops, op)
	}
	return ops, true
}
