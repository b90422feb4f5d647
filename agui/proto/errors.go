package proto

import (
	"errors"
	"fmt"
)

// What can go wrong, for errors.Is. Each error this package returns is one
// of the types below, and matches one of these.
var (
	// ErrFrameTooLarge: a frame's length is over the reader's limit. It is
	// refused from its 4-byte length, before anything is read into memory.
	ErrFrameTooLarge = errors.New("proto: frame too large")
	// ErrTruncated: the stream ends inside a frame, its length or its message.
	ErrTruncated = errors.New("proto: stream ends inside a frame")
	// ErrMalformed: a message that is not an AG-UI event in the binary
	// schema. The official client fails the stream on one.
	ErrMalformed = errors.New("proto: malformed event")
	// ErrUnknownEvent: a well-formed message whose only event is one this
	// schema does not know, from a later protocol. The official client
	// drops it with a warning and reads on; a Reader can read on too.
	ErrUnknownEvent = errors.New("proto: unknown event type")
	// ErrEventTooLarge: an event's JSON past the bound a Reader's MaxEvent
	// or AppendDecodeMax sets. Decoding stops once the JSON passes it.
	ErrEventTooLarge = errors.New("proto: event too large")
	// ErrCannotCarry: an event's JSON the binary schema cannot carry
	// faithfully.
	ErrCannotCarry = errors.New("proto: cannot carry")
)

// DecodeError is a message that is not an AG-UI event.
type DecodeError struct {
	Offset int    // where in the message it went wrong, in bytes
	Field  string // the field, as agui.proto names it ("run_finished.interrupts.id"); "" for the Event itself
	Reason string
}

func (e *DecodeError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("proto: malformed event at byte %d: %s", e.Offset, e.Reason)
	}
	return fmt.Sprintf("proto: malformed event at byte %d, %s: %s", e.Offset, e.Field, e.Reason)
}

func (e *DecodeError) Is(target error) bool { return target == ErrMalformed }

// UnknownEventError is a message carrying only arms of the Event oneof this
// schema does not know.
type UnknownEventError struct {
	Arms []int // their field numbers
}

func (e *UnknownEventError) Error() string {
	return fmt.Sprintf("proto: unknown event type (Event field %v)", e.Arms)
}

func (e *UnknownEventError) Is(target error) bool { return target == ErrUnknownEvent }

// EncodeError is an event's JSON the binary schema cannot carry: encoded,
// it would not decode to the same JSON.
type EncodeError struct {
	Pointer string // the member's JSON Pointer (RFC 6901); "" for the event itself
	Reason  string
}

func (e *EncodeError) Error() string {
	if e.Pointer == "" {
		return "proto: cannot carry the event: " + e.Reason
	}
	return "proto: cannot carry " + e.Pointer + ": " + e.Reason
}

func (e *EncodeError) Is(target error) bool { return target == ErrCannotCarry }

// ReadError places a stream's failure: the frame, and the byte of the
// stream where it went wrong. Err is ErrFrameTooLarge, ErrTruncated, a
// *DecodeError, an *UnknownEventError or one matching ErrEventTooLarge.
type ReadError struct {
	Frame  int   // the frame's index, from 0
	Offset int64 // the stream's byte: the frame's first for one too large, where it was cut, or the byte of its message
	Err    error
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("frame %d, byte %d: %v", e.Frame, e.Offset, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }
