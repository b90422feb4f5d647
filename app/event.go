package app

import (
	"fmt"
	"net/http"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
)

// ProtocolError: the agent sent something that is not a valid AG-UI event.
type ProtocolError struct{ Reason string }

func (e *ProtocolError) Error() string { return e.Reason }

// TransportError: the request failed, was refused, or the stream broke.
// Status is the HTTP status when there was one, Title the problem's title.
type TransportError struct {
	Status int
	Title  string
	Detail string
}

func (e *TransportError) Error() string {
	msg := e.Title
	if e.Status != 0 {
		msg = fmt.Sprintf("HTTP %d %s", e.Status, e.Title)
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func transportError(format string, args ...any) *TransportError {
	return &TransportError{Title: fmt.Sprintf(format, args...)}
}

// statusError describes a refused request by its problem+json, if any.
func statusError(status int, p problem) *TransportError {
	title := p.Title
	if title == "" {
		title = http.StatusText(status)
	}
	return &TransportError{Status: status, Title: bound(title), Detail: bound(p.Detail)}
}

// problem is the part of an RFC 9457 body the client shows.
type problem struct {
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

// DecodeEvent decodes one SSE data payload with the AG-UI SDK's types and
// checks it with the SDK's rules. STATE_DELTA operations are checked by
// ApplyPatch instead, so that a bad operation is reported with its index.
func DecodeEvent(data []byte) (events.Event, error) {
	ev, err := events.EventFromJSON(data)
	if err != nil {
		return nil, &ProtocolError{Reason: "malformed event: " + bound(err.Error())}
	}
	if ev.Type() == events.EventTypeStateDelta {
		return ev, nil
	}
	if err := ev.Validate(); err != nil {
		return nil, &ProtocolError{Reason: "invalid " + string(ev.Type()) + ": " + bound(err.Error())}
	}
	return ev, nil
}
