package app

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/types"
)

// MaxEventBytes bounds one SSE event's data.
const MaxEventBytes = 1 << 20

// Stream opens runs against an AG-UI endpoint. In the browser it posts
// with fetch and reads the body's ReadableStream as the server flushes;
// elsewhere it uses net/http.
type Stream struct {
	Endpoint string // absolute URL of POST /api/agent-analysis
}

// Run posts the run's RunAgentInput and sends one Msg per event, each
// tagged with the run's Conn, then one StreamClosed or StreamFailed. Once
// ctx is cancelled it sends nothing more and closes the response body,
// which aborts the request: the server sees the client go.
func (s Stream) Run(ctx context.Context, run Run, send func(Msg)) {
	fail := func(err error) {
		if ctx.Err() == nil {
			send(StreamFailed{Conn: run.Conn, Err: err})
		}
	}
	body, err := s.open(ctx, run)
	if err != nil {
		fail(err)
		return
	}
	defer body.Close()
	stop := context.AfterFunc(ctx, func() { body.Close() })
	defer stop()

	sse := NewSSEReader(body, MaxEventBytes)
	for {
		data, err := sse.Next()
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, io.EOF):
			send(StreamClosed{Conn: run.Conn})
			return
		case errors.Is(err, ErrEventTooLarge):
			fail(&ProtocolError{Reason: "an event is larger than 1 MiB"})
			return
		case err != nil:
			fail(transportError("the stream broke: %v", err))
			return
		}
		ev, err := DecodeEvent(data)
		if err != nil {
			fail(err) // the run fails: read no further
			return
		}
		send(ReceivedEvent{Conn: run.Conn, Event: ev})
	}
}

// response is what the platform's post returns: enough to check it.
type response struct {
	status      int
	contentType string
	body        io.ReadCloser
}

// open posts the run's input and checks the answer is an event stream.
func (s Stream) open(ctx context.Context, run Run) (io.ReadCloser, error) {
	payload, err := json.Marshal(RunInput(run))
	if err != nil {
		return nil, err
	}
	resp, err := s.post(ctx, payload)
	if err != nil {
		return nil, transportError("the request failed: %v", err)
	}
	if resp.status != http.StatusOK {
		defer resp.body.Close()
		var p problem
		json.NewDecoder(io.LimitReader(resp.body, 4<<10)).Decode(&p) // best effort: the status says enough
		return nil, statusError(resp.status, p)
	}
	if mt, _, _ := mime.ParseMediaType(resp.contentType); mt != "text/event-stream" {
		resp.body.Close()
		return nil, transportError("the response is %q, not an event stream", resp.contentType)
	}
	return resp.body, nil
}

// RunInput is the AG-UI RunAgentInput of a run: no tools, messages or
// context, an empty state, and the scenario in forwardedProps.
func RunInput(run Run) types.RunAgentInput {
	return types.RunAgentInput{
		ThreadID:       run.ThreadID,
		RunID:          run.RunID,
		State:          map[string]any{},
		Messages:       []types.Message{},
		Tools:          []types.Tool{},
		Context:        []types.Context{},
		ForwardedProps: map[string]any{"scenario": run.Scenario},
	}
}
