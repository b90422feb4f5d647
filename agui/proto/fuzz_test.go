package proto

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzReader reads any bytes as a stream. It never panics, holds no frame
// over its limit, gives JSON objects, and fails only with the errors it
// names, each placed in the stream.
func FuzzReader(f *testing.F) {
	var stream []byte
	for _, event := range testEvents(f) {
		stream, _ = AppendFrame(stream, event)
		f.Add(stream)
	}
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0, 1, 0, 0, 0x0a})
	const limit = 1 << 12
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := NewReader(bytes.NewReader(stream), limit)
		for {
			data, err := r.Next()
			if cap(r.msg) > limit {
				t.Fatalf("holds %d bytes, over the limit of %d", cap(r.msg), limit)
			}
			if err == io.EOF {
				return
			}
			if err != nil {
				var re *ReadError
				if !errors.As(err, &re) || re.Offset < 0 || re.Offset > int64(len(stream)) {
					t.Fatalf("an error that does not place itself: %v", err)
				}
				switch {
				case errors.Is(err, ErrFrameTooLarge), errors.Is(err, ErrTruncated):
					return
				case errors.Is(err, ErrMalformed), errors.Is(err, ErrUnknownEvent):
					continue
				}
				t.Fatalf("an error of no kind this package names: %v", err)
			}
			if !jsontext.Value(data).IsValid() || data[0] != '{' {
				t.Fatalf("not a JSON object: %s", data)
			}
		}
	})
}

// FuzzDecode decodes any bytes as a message. It never panics; what it
// decodes is one JSON object, which Encode carries and Decode gives back.
func FuzzDecode(f *testing.F) {
	for _, event := range testEvents(f) {
		msg, _ := Encode(event)
		f.Add(msg)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		out, err := Decode(msg)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnknownEvent) {
				t.Fatalf("an error of no kind this package names: %v", err)
			}
			return
		}
		if !jsontext.Value(out).IsValid() || out[0] != '{' {
			t.Fatalf("not a JSON object: %s", out)
		}
		again, err := Encode(out)
		if err != nil {
			t.Fatalf("Encode refuses what Decode gave: %s: %v", out, err)
		}
		back, err := Decode(again)
		if err != nil || !sameJSON(t, out, back) {
			t.Fatalf("%s\nencoded, decodes to\n%s, %v", out, back, err)
		}
	})
}
