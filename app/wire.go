package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Series groups services: Core (the product path) or Platform (shared).
type Series string

const (
	Core     Series = "Core"
	Platform Series = "Platform"
)

// Service is one measured service.
type Service struct {
	ID      string  `json:"id" validate:"required,notblank,max=64"`
	Name    string  `json:"name" validate:"required,notblank,max=64"`
	Series  Series  `json:"series" validate:"oneof=Core Platform"`
	Volume  float64 `json:"volume" validate:"finite,gte=0"`  // requests per minute
	Latency float64 `json:"latency" validate:"finite,gte=0"` // p95, milliseconds
}

// Wire is the remote state the agent streams: a list of services. A Wire
// held by the Model is always valid and never modified in place.
type Wire struct {
	Services []Service `json:"services" validate:"required,dive"`
}

// Find returns the service with the given id.
func (w Wire) Find(id string) (Service, bool) {
	for _, s := range w.Services {
		if s.ID == id {
			return s, true
		}
	}
	return Service{}, false
}

// DecodeWire decodes one complete Wire strictly (unknown fields and
// trailing data are errors) and validates it in full.
func DecodeWire(data []byte) (Wire, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var w Wire
	if err := dec.Decode(&w); err != nil {
		return Wire{}, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Wire{}, errors.New("data after the state object")
	}
	if err := w.Validate(); err != nil {
		return Wire{}, err
	}
	return w, nil
}

// Validate checks every rule of the Wire: field rules (validator/v10
// natively, the same rules by hand in the browser), then unique ids.
func (w Wire) Validate() error {
	if err := checkFields(w); err != nil {
		return err
	}
	seen := make(map[string]int, len(w.Services))
	for i, s := range w.Services {
		if first, dup := seen[s.ID]; dup {
			return fmt.Errorf("services[%d].id: %q duplicates services[%d]", i, s.ID, first)
		}
		seen[s.ID] = i
	}
	return nil
}
