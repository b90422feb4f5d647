package server

import (
	"errors"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/go-playground/validator/v10/non-standard/validators"
)

// validator/v10 checks the server's request input. (The client's Wire has
// rules of its own in app/core, run alike natively and in the browser.)

// newValidator returns a validator that knows "notblank" and names fields
// by their json tag, so reasons read like the wire format.
func newValidator() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	if err := v.RegisterValidation("notblank", validators.NotBlank); err != nil {
		panic(err) // a programming error: the tag name is fixed
	}
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			return f.Name
		}
		return name
	})
	return v
}

// explainInvalid describes a validation error as "field: reason" items
// joined by "; ", and names the first field at fault.
func explainInvalid(err error) (field, detail string) {
	var fields validator.ValidationErrors
	if !errors.As(err, &fields) {
		return "", err.Error()
	}
	reasons := make([]string, 0, len(fields))
	for _, fe := range fields {
		reasons = append(reasons, fe.Field()+": "+reason(fe))
	}
	return fields[0].Field(), strings.Join(reasons, "; ")
}

func reason(fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return "is required"
	case "notblank":
		return "must not be blank"
	case "max":
		return "must be at most " + fe.Param() + " characters"
	default:
		return "fails " + fe.Tag()
	}
}
