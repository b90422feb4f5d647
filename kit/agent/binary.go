package agent

import (
	"errors"
	"fmt"
	"io"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// WatchBinary reads a stream in AG-UI's binary transport as Watch reads
// SSE: package proto decodes each frame to the event's JSON, which the
// engine judges as it judges the same event over SSE, so that every rule,
// warning and report is the same in both encodings. What only the binary
// framing can get wrong is judged here, each at its frame:
//
//   - an event of a type the binary schema lacks (a later protocol's) is
//     dropped with the engine's unknown-event warning, as the official
//     client drops it;
//   - a frame whose message does not decode (a wrong wire type, invalid
//     UTF-8, an empty frame) breaks not-an-event, as an SSE event that is
//     not a JSON object does, and frame is told of it as such an event,
//     its text saying why, so that it keeps its place where events are
//     shown or kept;
//   - a frame cut short at the stream's end, or longer than a client
//     reads (proto.MaxFrameBytes), fails by binary-framing: the one is the
//     stream's Cut, the other ends the reading (Framing);
//   - a frame whose JSON passes the engine's bound (agui.MaxEventBytes)
//     ends the reading as an SSE event over it does (OverBound).
//
// Frames carry no SSE comments, and no lines: a frame's place is its
// number and its first byte.
func WatchBinary(body io.Reader, consumer *agui.Consumer, frame FrameFunc) Watched {
	return watchBinaryUntil(nil, body, consumer, frame)
}

// watchBinaryUntil is WatchBinary taking no frame once done is closed
// (watchUntil).
func watchBinaryUntil(done <-chan struct{}, body io.Reader, consumer *agui.Consumer, frame FrameFunc) Watched {
	var w Watched
	events := proto.NewReader(body, proto.MaxFrameBytes)
	events.MaxEvent = agui.MaxEventBytes // as Watch's SSE reader: stop there, not after building it
	halted := false
	for !halted {
		data, err := events.Next()
		if (err == nil || errors.Is(err, proto.ErrUnknownEvent) || errors.Is(err, proto.ErrMalformed)) && closed(done) {
			halted = true // a frame, come after the run's end
			break
		}
		var placed *proto.ReadError
		errors.As(err, &placed)
		switch {
		case err == nil:
		case errors.Is(err, proto.ErrUnknownEvent):
			var u *proto.UnknownEventError
			errors.As(err, &u)
			// The engine drops it, and warns, as it drops an unknown type
			// over SSE; the event keeps its place in the stream's count.
			data = []byte(fmt.Sprintf(`{"type":"binary Event field %v"}`, u.Arms))
		case errors.Is(err, proto.ErrMalformed):
			w.Events++
			why := fmt.Sprintf("a binary frame that does not decode (frame %d, byte %d): %v", placed.Frame+1, placed.Offset, placed.Err)
			j := agui.Judgement{Index: w.Events - 1, Violation: &agui.Violation{Index: w.Events - 1, Rule: agui.NotAnEvent, Reason: "the event is " + why}}
			if consumer != nil {
				j = consumer.Unreadable(why)
			}
			if w.Violation == nil {
				w.Violation = j.Violation
			}
			halted = !frame(script.Frame{Event: []byte(why)}, j)
			continue
		case errors.Is(err, proto.ErrTruncated):
			w.Err = io.EOF
			w.Cut = &rules.Failure{Rule: rules.BinaryFraming, Text: fmt.Sprintf(
				"the stream ended inside frame %d (byte %d): %v, on which @ag-ui/client 1.0 fails the run", placed.Frame+1, placed.Offset, placed.Err)}
		case errors.Is(err, proto.ErrEventTooLarge):
			w.Err = err // OverBound
		case errors.Is(err, proto.ErrFrameTooLarge):
			w.Err = err
			w.Framing = &rules.Failure{Rule: rules.BinaryFraming, Text: fmt.Sprintf(
				"frame %d (byte %d): %v, more than a client reads: the stream was not read further", placed.Frame+1, placed.Offset, placed.Err)}
		default:
			w.Err = err
		}
		if w.Err != nil {
			break
		}
		w.Events++
		halted = !frame(script.Frame{Event: data}, w.judge(consumer, data))
	}
	if halted && w.Err == nil {
		w.Err = ErrHalted
	}
	w.judged(consumer)
	return w
}
