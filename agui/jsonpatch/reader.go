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
