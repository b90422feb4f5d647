package app

import (
	"bytes"
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

// Stream opens runs against an AG-UI endpoint over HTTP. In the browser
// net/http uses fetch and the body streams as the server flushes.
type Stream struct {
	Client   *http.Client
	Endpoint string // absolute URL of POST /api/agent-analysis
}

// Run posts the run's RunAgentInput and sends one Msg per event, each
// tagged with the run's Conn, then one StreamClosed or StreamFailed. Once
// ctx is cancelled it sends nothing more and closes the response body: in
// the browser that, not the context, is what aborts a fetch in progress.
func (s Stream) Run(ctx context.Context, run Run, send func(Msg)) {
	fail := func(err error) {
		if ctx.Err() == nil {
			send(StreamFailed{Conn: run.Conn, Err: err})
		}
	}
	resp, err := s.open(ctx, run)
	if err != nil {
		fail(err)
		return
	}
	defer resp.Body.Close()
	stop := context.AfterFunc(ctx, func() { resp.Body.Close() })
	defer stop()

	sse := NewSSEReader(resp.Body, MaxEventBytes)
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

// open sends the request and checks the response is an event stream.
func (s Stream) open(ctx context.Context, run Run) (*http.Response, error) {
	body, err := json.Marshal(RunInput(run))
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.Endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, transportError("%v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	client := s.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, transportError("the request failed: %v", errors.Unwrap(err))
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		var p problem
		json.NewDecoder(io.LimitReader(resp.Body, 4<<10)).Decode(&p) // best effort: the status says enough
		return nil, statusError(resp.StatusCode, p)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		resp.Body.Close()
		return nil, transportError("the response is %q, not an event stream", resp.Header.Get("Content-Type"))
	}
	return resp, nil
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
