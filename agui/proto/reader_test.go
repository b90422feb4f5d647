package proto

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"google.golang.org/protobuf/encoding/protowire"
)

// frame is a message behind its 4-byte length.
func frame(msg []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(msg))), msg...)
}

// encoded is an event's message, made by Encode.
func encoded(t testing.TB, event string) []byte {
	t.Helper()
	msg, err := Encode([]byte(event))
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

func hexBytes(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

const (
	started  = `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`
	finished = `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`
)

// Each Next is one event's JSON, whatever the reads' sizes.
func TestReaderReadsEveryFrame(t *testing.T) {
	stream := append(frame(encoded(t, started)), frame(encoded(t, finished))...)
	for _, size := range []int{1, 3, 1024} {
		r := NewReader(chunked{bytes.NewReader(stream), size}, MaxFrameBytes)
		var got []string
		for {
			data, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("reads of %d: %v", size, err)
			}
			got = append(got, string(data))
		}
		if strings.Join(got, "|") != started+"|"+finished {
			t.Errorf("reads of %d: %q", size, got)
		}
	}
}

// What ends a stream, each a *ReadError placing it.
func TestReaderRefusesBadFraming(t *testing.T) {
	good := frame(encoded(t, started))
	tests := []struct {
		name   string
		stream []byte
		max    int
		want   error
		offset int64
	}{
		{"a length over the limit, refused before reading", append(good, 0x00, 0x0f, 0xff, 0xff), 1 << 16, ErrFrameTooLarge, int64(len(good))},
		{"the official limit counts the length too", append(good, frame(make([]byte, MaxFrameBytes-3))[:8]...), MaxFrameBytes, ErrFrameTooLarge, int64(len(good))},
		{"a length cut short", append(good, 0x00, 0x00), MaxFrameBytes, ErrTruncated, int64(len(good)) + 2},
		{"a message cut short", append(good, frame(encoded(t, finished))[:9]...), MaxFrameBytes, ErrTruncated, int64(len(good)) + 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(bytes.NewReader(tt.stream), tt.max)
			if _, err := r.Next(); err != nil {
				t.Fatalf("the first frame: %v", err)
			}
			_, err := r.Next()
			var re *ReadError
			if !errors.Is(err, tt.want) || !errors.As(err, &re) || re.Frame != 1 || re.Offset != tt.offset {
				t.Fatalf("got %v (%+v), want %v at frame 1, byte %d", err, re, tt.want, tt.offset)
			}
			if _, again := r.Next(); again != err {
				t.Errorf("the stream goes on after %v: %v", err, again)
			}
		})
	}
}

// A frame at the limit is read; its message is within MaxFrameBytes-4.
func TestReaderTakesAFrameAtTheLimit(t *testing.T) {
	msg := encoded(t, started)
	r := NewReader(bytes.NewReader(frame(msg)), 4+len(msg))
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
}

// A lying length costs the bytes that came, not the bytes it names.
func TestReaderHoldsWhatArrived(t *testing.T) {
	r := NewReader(bytes.NewReader([]byte{0x00, 0x9f, 0xff, 0xfb, 0x0a}), MaxFrameBytes)
	if _, err := r.Next(); !errors.Is(err, ErrTruncated) {
		t.Fatal(err)
	}
	if cap(r.msg) > 1<<17 {
		t.Errorf("holds %d bytes for a stream of 5", cap(r.msg))
	}
}

// A frame that is not an event, or an event from a later protocol, is
// placed, and the frames after it are read.
func TestReaderReadsOnAfterABadEvent(t *testing.T) {
	tests := []struct {
		name   string
		msg    []byte
		want   error
		offset int64 // in the stream
	}{
		{"an empty frame names no event", nil, ErrMalformed, 4},
		{"an arm from a later protocol", hexBytes("c202 00"), ErrUnknownEvent, 4},
		{"invalid UTF-8", hexBytes("12 07 0a02 0801 1201 ff"), ErrMalformed, 4 + 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stream := append(frame(tt.msg), frame(encoded(t, finished))...)
			r := NewReader(bytes.NewReader(stream), MaxFrameBytes)
			_, err := r.Next()
			var re *ReadError
			if !errors.Is(err, tt.want) || !errors.As(err, &re) || re.Frame != 0 || re.Offset != tt.offset {
				t.Fatalf("got %v (%+v), want %v at byte %d", err, re, tt.want, tt.offset)
			}
			if data, err := r.Next(); err != nil || string(data) != finished {
				t.Errorf("after it: %s, %v", data, err)
			}
		})
	}
}

// An event whose JSON passes MaxEvent is refused once it passes, placed
// at its frame, and the frames after it are read.
func TestReaderStopsAtMaxEvent(t *testing.T) {
	// RUN_STARTED whose input lists empty resume entries: two bytes each
	// on the wire, some thirty in JSON.
	input := bytes.Repeat(hexBytes("4a00"), 1<<17)
	ev := slices.Concat(hexBytes("0a02080b"), protowire.AppendBytes(hexBytes("2a"), input))
	msg := protowire.AppendBytes(hexBytes("62"), ev)
	if json, err := Decode(msg); err != nil || len(json) < 2<<20 {
		t.Fatalf("unbounded: %d bytes, %v", len(json), err)
	}
	stream := append(frame(msg), frame(encoded(t, finished))...)
	r := NewReader(bytes.NewReader(stream), MaxFrameBytes)
	r.MaxEvent = 1 << 20
	_, err := r.Next()
	var re *ReadError
	if !errors.Is(err, ErrEventTooLarge) || !errors.As(err, &re) || re.Frame != 0 || re.Offset != 4 { // its message's first byte
		t.Fatalf("got %v (%+v)", err, re)
	}
	if cap(r.json) > 2<<20 {
		t.Errorf("holds %d bytes of JSON for a bound of 1 MiB", cap(r.json))
	}
	if data, err := r.Next(); err != nil || string(data) != finished {
		t.Errorf("after it: %s, %v", data, err)
	}
	// At the bound, it is read.
	json, _ := Decode(encoded(t, finished))
	if _, err := AppendDecodeMax(nil, encoded(t, finished), len(json)); err != nil {
		t.Error(err)
	}
	if _, err := AppendDecodeMax(nil, encoded(t, finished), len(json)-1); !errors.Is(err, ErrEventTooLarge) {
		t.Errorf("a byte over the bound: %v", err)
	}
}

// OnFrame sees each frame's message before it is decoded.
func TestOnFrameSeesTheBytes(t *testing.T) {
	msg := encoded(t, started)
	r := NewReader(iotest.OneByteReader(bytes.NewReader(frame(msg))), MaxFrameBytes)
	var seen []byte
	r.OnFrame = func(m []byte) { seen = bytes.Clone(m) }
	if _, err := r.Next(); err != nil || !bytes.Equal(seen, msg) {
		t.Errorf("%x, %v", seen, err)
	}
}

// An error of the underlying reader comes as it came.
func TestReaderPassesReadErrorsOn(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(iotest.ErrReader(boom), MaxFrameBytes)
	if _, err := r.Next(); err != boom {
		t.Errorf("%v", err)
	}
	// io.ErrUnexpectedEOF too, as net/http says a body broke: inside a
	// frame's length or its message, it is no frame the stream cut short.
	for _, cut := range []int{2, 6} {
		frame := []byte{0, 0, 0, 5, 1, 2, 3, 4, 5}
		r := NewReader(io.MultiReader(bytes.NewReader(frame[:cut]), iotest.ErrReader(io.ErrUnexpectedEOF)), MaxFrameBytes)
		if _, err := r.Next(); err != io.ErrUnexpectedEOF {
			t.Errorf("broken after %d bytes: %v", cut, err)
		}
	}
}

// chunked reads at most size bytes at a time.
type chunked struct {
	r    io.Reader
	size int
}

func (c chunked) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.size)]) }
