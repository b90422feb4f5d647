package jsonpatch

import (
	"bytes"
	"io"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// Reader is a jsontext.Decoder reading its data in place, taken from a
// pool: making a decoder's buffers costs more than reading a small value
// does. Close it when done; nothing read from it may point into the decoder afterwards (a
// Value from ReadValue points into the data, which stays the caller's).
type Reader struct {
	jsontext.Decoder
	data bytes.Buffer
	// Scratch space for the members and items of the objects and arrays
	// being read (json.go): each list is made once, at its size.
	names  []string
	values []Value
	// known are member names read before, each kept once: inputs and
	// events repeat the same few names, which then cost no allocation.
	known map[string]string
}

// The names a Reader keeps, and how long each may be.
const (
	maxKnown     = 512
	maxKnownName = 64
)

// name is a member's name from its quoted JSON string.
func (r *Reader) name(quoted []byte) string {
	if bytes.IndexByte(quoted, '\\') >= 0 {
		return text(quoted) // valid: the decoder or jsonscan read it
	}
	body := quoted[1 : len(quoted)-1]
	if s, ok := r.known[string(body)]; ok {
		return s
	}
	s := string(body)
	if len(s) <= maxKnownName && len(r.known) < maxKnown {
		if r.known == nil {
			r.known = make(map[string]string)
		}
		r.known[s] = s
	}
	return s
}

var readers = sync.Pool{New: func() any { return new(Reader) }}

// NewReader is a Reader over data.
func NewReader(data []byte, opts ...jsontext.Options) *Reader {
	r := readers.Get().(*Reader)
	r.data = *bytes.NewBuffer(data)
	r.Reset(&r.data, opts...)
	return r
}

// AtEnd reads on, and reports whether nothing but white space was left.
func (r *Reader) AtEnd() bool {
	_, err := r.ReadToken()
	return err == io.EOF
}

// Close gives the Reader back to the pool, holding no value read (a read
// that failed leaves its lists on the stacks).
func (r *Reader) Close() {
	r.data = bytes.Buffer{}
	clear(r.names)
	clear(r.values)
	r.names, r.values = r.names[:0], r.values[:0]
	readers.Put(r)
}
