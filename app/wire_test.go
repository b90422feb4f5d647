package app

import (
	"math"
	"strings"
	"testing"
)

func initialWire() Wire {
	return Wire{Services: []Service{
		{ID: "api", Name: "API", Series: Core, Volume: 1200, Latency: 60},
		{ID: "checkout", Name: "Checkout", Series: Core, Volume: 640, Latency: 92},
		{ID: "auth", Name: "Auth", Series: Platform, Volume: 900, Latency: 35},
	}}
}

func TestDecodeWire(t *testing.T) {
	valid := `{"id":"api","name":"API","series":"Core","volume":1200,"latency":60}`
	tests := []struct {
		name, json string
		reason     string // "" when valid
	}{
		{"one service", `{"services":[` + valid + `]}`, ""},
		{"empty list", `{"services":[]}`, ""},
		{"zero values are measurements", `{"services":[{"id":"x","name":"X","series":"Platform","volume":0,"latency":0}]}`, ""},
		{"no services", `{}`, "services: is required"},
		{"null services", `{"services":null}`, "services: is required"},
		{"unknown top field", `{"services":[],"extra":1}`, `unknown field "extra"`},
		{"unknown service field", `{"services":[{"id":"x","name":"X","series":"Core","volume":1,"latency":1,"owner":"me"}]}`, `unknown field "owner"`},
		{"trailing data", `{"services":[]} {}`, "data after the state object"},
		{"not an object", `[]`, "cannot unmarshal"},
		{"string number", `{"services":[{"id":"x","name":"X","series":"Core","volume":"1","latency":1}]}`, "cannot unmarshal string"},
		{"huge number", `{"services":[{"id":"x","name":"X","series":"Core","volume":1e400,"latency":1}]}`, "cannot unmarshal number"},
		{"null service", `{"services":[null]}`, "services[0].id: is required"},
		{"blank id", `{"services":[{"id":"  ","name":"X","series":"Core","volume":1,"latency":1}]}`, "services[0].id: must not be blank"},
		{"missing name", `{"services":[{"id":"x","series":"Core","volume":1,"latency":1}]}`, "services[0].name: is required"},
		{"long id", `{"services":[{"id":"` + strings.Repeat("x", 65) + `","name":"X","series":"Core","volume":1,"latency":1}]}`, "services[0].id: must be at most 64 characters"},
		{"unknown series", `{"services":[{"id":"x","name":"X","series":"Edge","volume":1,"latency":1}]}`, `services[0].series: must be one of Core, Platform, got "Edge"`},
		{"negative volume", `{"services":[{"id":"x","name":"X","series":"Core","volume":-1,"latency":1}]}`, "services[0].volume: must be at least 0"},
		{"negative latency", `{"services":[{"id":"x","name":"X","series":"Core","volume":1,"latency":-0.5}]}`, "services[0].latency: must be at least 0"},
		{"duplicate id", `{"services":[` + valid + `,` + strings.Replace(valid, "API", "Other", 1) + `]}`, `services[1].id: "api" duplicates services[0]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeWire([]byte(tt.json))
			switch {
			case tt.reason == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case tt.reason != "" && err == nil:
				t.Fatalf("accepted, want %q", tt.reason)
			case tt.reason != "" && !strings.Contains(err.Error(), tt.reason):
				t.Fatalf("reason %q, want %q", err, tt.reason)
			}
		})
	}
}

// Values built in code can be NaN or infinite, which JSON input cannot.
func TestValidateRejectsNonFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		w := initialWire()
		w.Services[1].Latency = v
		if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "services[1].latency: must be a finite number") {
			t.Errorf("latency %v: %v", v, err)
		}
		w = initialWire()
		w.Services[2].Volume = v
		if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "services[2].volume") {
			t.Errorf("volume %v: %v", v, err)
		}
	}
}
