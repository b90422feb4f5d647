package app

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

// Wire is the remote state the agent streams: a list of services.
type Wire struct {
	Services []Service `json:"services" validate:"required,dive"`
}
