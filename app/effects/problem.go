package effects

import (
	"fmt"
	"net/http"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// failure is why a stream cannot go on, as Update receives it.
type failure struct {
	kind   core.FailureKind
	reason string
}

func protocolFailure(format string, args ...any) *failure {
	return &failure{kind: core.Protocol, reason: core.Bound(fmt.Sprintf(format, args...))}
}

func transportFailure(format string, args ...any) *failure {
	return &failure{kind: core.Transport, reason: core.Bound(fmt.Sprintf(format, args...))}
}

// refused describes a refused request by its status and problem+json.
func refused(status int, p problem) *failure {
	title := p.Title
	if title == "" {
		title = http.StatusText(status)
	}
	reason := fmt.Sprintf("HTTP %d %s", status, title)
	if p.Detail != "" {
		reason += ": " + p.Detail
	}
	return &failure{kind: core.Transport, reason: core.Bound(reason)}
}

// problem is the part of an RFC 9457 body the client shows.
type problem struct {
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

// DecodeEvent decodes one SSE data payload as an AG-UI event. The JSON
// must be valid and repeat no name anywhere (encoding/json, under the
// SDK, would keep the last of two "type"s); then the AG-UI SDK's types
// and rules decide. STATE_DELTA operations are left to the core, which
// reads them from the JSON and reports a bad one with its index.
func DecodeEvent(data []byte) (events.Event, error) {
	if !jsontext.Value(data).IsValid() {
		return nil, protocolFailure("malformed event: not valid JSON, or a name repeated in an object")
	}
	ev, err := events.EventFromJSON(data)
	if err != nil {
		return nil, protocolFailure("malformed event: %v", err)
	}
	if ev.Type() == events.EventTypeStateDelta {
		return ev, nil
	}
	if err := ev.Validate(); err != nil {
		return nil, protocolFailure("invalid %s: %v", ev.Type(), err)
	}
	return ev, nil
}

func (f *failure) Error() string { return f.reason }
