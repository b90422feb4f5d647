package proto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
)

// MediaType is the binary transport's content type.
const MediaType = "application/vnd.ag-ui.event+proto"

// MaxFrameBytes is the largest frame, its 4-byte length included, the
// official client reads: @ag-ui/client 1.0.0 fails the stream on a larger
// one (MAX_BUFFER_SIZE). The engine's own bound is agui.MaxEventBytes, 1
// MiB of an event's JSON: a frame within this one can still decode to an
// event the engine refuses.
const MaxFrameBytes = 10 << 20

// Reader reads a binary AG-UI stream: frames, each a 4-byte big-endian
// length and one Event message. Next decodes each to the event's JSON, the
// same bytes sse.Reader's Next gives for the event over SSE, so that a
// consumer reads either transport with the same loop.
type Reader struct {
	// OnFrame, when set, is called with each frame's message before Next
	// decodes it; the slice is valid only during the call. A recorder or a
	// proxy keeps the bytes as they came with it.
	OnFrame func(msg []byte)
	// MaxEvent, when positive, is the most JSON an event may decode to:
	// past it Next returns ErrEventTooLarge, having stopped decoding there,
	// and reads on. A frame within MaxFrameBytes can decode to more than
	// 15 times its size.
	MaxEvent int

	r      io.Reader
	max    int
	frame  int   // the next frame's index
	offset int64 // the next frame's first byte in the stream
	msg    []byte
	json   []byte
	err    error // what ended the stream, returned again
}

// NewReader reads frames of at most maxFrame bytes, their length included,
// from r: MaxFrameBytes reads what the official client reads.
func NewReader(r io.Reader, maxFrame int) *Reader {
	return &Reader{r: r, max: maxFrame}
}

// Next returns the next event's JSON, valid until the next call, and
// io.EOF once the stream ends between frames.
//
// Its errors are *ReadErrors placing the frame. An event of a type this
// schema does not know (ErrUnknownEvent), a frame that is not an event
// (ErrMalformed) and one whose JSON passes MaxEvent (ErrEventTooLarge) were
// read whole, so Next reads on after them: the official client drops the
// first with a warning and fails the stream on the second. A frame too large (ErrFrameTooLarge) or cut short (ErrTruncated)
// ends the stream, and Next returns the same error again; so does an
// error of the underlying reader, as it came.
func (r *Reader) Next() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	var head [4]byte
	if n, err := readFull(r.r, head[:]); err != nil {
		return nil, r.end(err, n, 4)
	}
	length := int64(binary.BigEndian.Uint32(head[:]))
	if 4+length > int64(r.max) {
		r.err = r.place(r.offset, fmt.Errorf("%w: %d bytes with its length, over the limit of %d%s", ErrFrameTooLarge, 4+length, r.max, readsAsText(head[:])))
		return nil, r.err
	}
	if err := r.readMessage(int(length)); err != nil {
		return nil, r.end(err, 4+len(r.msg), 4+int(length))
	}
	at, frame := r.offset, r.frame
	r.offset += 4 + length
	r.frame++
	if r.OnFrame != nil {
		r.OnFrame(r.msg)
	}
	var err error
	if r.json, err = AppendDecodeMax(r.json[:0], r.msg, r.MaxEvent); err != nil {
		at += 4 // the message's first byte
		if e, ok := err.(*DecodeError); ok {
			at += int64(e.Offset)
		}
		return nil, &ReadError{Frame: frame, Offset: at, Err: err}
	}
	return r.json, nil
}

// readMessage reads a message of n bytes. Its buffer grows with what
// arrives, so that a length that lies costs only the bytes that came.
func (r *Reader) readMessage(n int) error {
	r.msg = r.msg[:0]
	for len(r.msg) < n {
		chunk := min(n-len(r.msg), max(len(r.msg), 64<<10))
		r.msg = slices.Grow(r.msg, chunk)
		k, err := readFull(r.r, r.msg[len(r.msg):len(r.msg)+chunk])
		r.msg = r.msg[:len(r.msg)+k]
		if err != nil {
			return err
		}
	}
	return nil
}

// readFull is io.ReadFull, but what the source says stays its own: a
// stream that ends, however much of buf it filled, is io.EOF, and a body
// that breaks (net/http's io.ErrUnexpectedEOF, for one cut short of its
// Content-Length or chunks) is not a stream ended inside a frame.
func readFull(r io.Reader, buf []byte) (n int, err error) {
	for n < len(buf) && err == nil {
		var k int
		k, err = r.Read(buf[n:])
		n += k
	}
	if n == len(buf) {
		return n, nil
	}
	return n, err
}

// end is the error a stream ends with when a read fails, got of the frame's
// want bytes read: io.EOF between frames, ErrTruncated inside one, and any
// other failure of the source (a connection broken) as it is.
func (r *Reader) end(err error, got, want int) error {
	switch {
	case errors.Is(err, io.EOF) && got == 0:
		r.err = io.EOF
	case errors.Is(err, io.EOF):
		r.err = r.place(r.offset+int64(got), fmt.Errorf("%w: %d of its %d bytes", ErrTruncated, got, want))
	default:
		r.err = err
	}
	return r.err
}

func (r *Reader) place(at int64, err error) error {
	return &ReadError{Frame: r.frame, Offset: at, Err: err}
}

// readsAsText names a frame length that reads as text, as "data" or ": k" do:
// SSE, or JSON, where the binary transport was said to be.
func readsAsText(length []byte) string {
	for _, c := range length {
		if c < ' ' || c > '~' {
			return ""
		}
	}
	return fmt.Sprintf(" (its length reads %q: text where a binary frame should start)", length)
}
