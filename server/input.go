package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/types"
	"github.com/go-playground/validator/v10"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

// maxBody bounds a RunAgentInput; the demo client sends about 200 bytes.
const maxBody = 16 << 10

// runInput is the part of an AG-UI RunAgentInput this server acts on:
// once decodeRunInput returns it, its scenario names a fixture.
type runInput struct {
	ThreadID string `json:"threadId" validate:"required,notblank,max=128"`
	RunID    string `json:"runId" validate:"required,notblank,max=128"`
	Scenario string `json:"forwardedProps.scenario" validate:"required,notblank,max=64"`
}

// decodeRunInput reads and checks the whole request, so every failure is a
// Problem and a stream only starts on a valid request.
func decodeRunInput(w http.ResponseWriter, r *http.Request, v *validator.Validate) (runInput, *Problem) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return runInput{}, problem(http.StatusUnsupportedMediaType, "unsupported-media-type",
			"Unsupported media type", "Send the RunAgentInput as Content-Type: application/json.")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if errors.As(err, new(*http.MaxBytesError)) {
		return runInput{}, problem(http.StatusRequestEntityTooLarge, "body-too-large",
			"Request body too large", "A RunAgentInput may be at most 16 KiB.")
	}
	if err != nil {
		return runInput{}, problem(http.StatusBadRequest, "unreadable-body", "Unreadable request body", err.Error())
	}

	// The SDK's RunAgentInput takes the official client's body as it is,
	// protocolVersion included.
	var input types.RunAgentInput
	if err := json.Unmarshal(body, &input); err != nil {
		return runInput{}, problem(http.StatusBadRequest, "malformed-json", "Malformed RunAgentInput", err.Error())
	}
	in := runInput{ThreadID: input.ThreadID, RunID: input.RunID}
	if p := readScenario(input.ForwardedProps, &in.Scenario); p != nil {
		return runInput{}, p
	}
	if err := v.Struct(in); err != nil {
		return runInput{}, invalid(explainInvalid(err))
	}
	if _, ok := fixtures.Lookup(in.Scenario); !ok {
		return runInput{}, problem(http.StatusUnprocessableEntity, "unknown-scenario", "Unknown scenario",
			fmt.Sprintf("forwardedProps.scenario %q is not one of %s.", in.Scenario, strings.Join(fixtures.Scenarios(), ", ")))
	}
	return in, nil
}

// readScenario takes forwardedProps.scenario if present; absence is left to
// the validator's "required".
func readScenario(props any, scenario *string) *Problem {
	switch props := props.(type) {
	case nil:
		return nil
	case map[string]any:
		s, present := props["scenario"]
		if !present {
			return nil
		}
		var ok bool
		if *scenario, ok = s.(string); !ok {
			return invalid("forwardedProps.scenario: must be a string")
		}
		return nil
	default:
		return invalid("forwardedProps: must be an object")
	}
}

func invalid(detail string) *Problem {
	return problem(http.StatusBadRequest, "invalid-input", "Invalid RunAgentInput", detail)
}
