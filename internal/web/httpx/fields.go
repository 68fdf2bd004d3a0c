package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime"
	"net/http"

	"parking/internal/fault"
)

// ReadFields reads the named text fields of a request body that is either a JSON
// object (the page's scripts) or a form, urlencoded or multipart (a plain HTML form
// posted with a method override, or curl -F). A field that is absent, or JSON null,
// is nil; callers decide whether that means "keep" or "missing". JSON numbers are
// taken as their text, since scripts send phone numbers as numbers.
func ReadFields(w http.ResponseWriter, r *http.Request, names ...string) (map[string]*string, error) {
	out := make(map[string]*string, len(names))
	media, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil && r.Header.Get("Content-Type") != "" {
		return nil, fault.Invalidf("Cabecera Content-Type no válida.")
	}
	switch media {
	case "", "application/json":
		var raw map[string]json.RawMessage
		if err := DecodeJSON(w, r, &raw); err != nil {
			return nil, err
		}
		for _, name := range names {
			v, ok := raw[name]
			if !ok {
				continue
			}
			v = bytes.TrimSpace(v)
			switch {
			case string(v) == "null":
			case len(v) > 0 && v[0] == '"':
				var s string
				if err := json.Unmarshal(v, &s); err != nil {
					return nil, fault.Invalidf("El campo %s debe ser un texto.", name)
				}
				out[name] = &s
			case len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9'):
				s := string(v)
				out[name] = &s
			default:
				return nil, fault.Invalidf("El campo %s debe ser un texto.", name)
			}
		}
		return out, nil
	case "application/x-www-form-urlencoded", "multipart/form-data":
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		if media == "multipart/form-data" {
			err = r.ParseMultipartForm(MaxBody)
		} else {
			err = r.ParseForm()
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, fault.Invalidf("El cuerpo de la petición supera el máximo de %d KiB.", MaxBody>>10)
			}
			return nil, fault.Invalidf("No se pudo leer el formulario.")
		}
		for _, name := range names {
			if vs, ok := r.PostForm[name]; ok && len(vs) > 0 {
				v := vs[0]
				out[name] = &v
			}
		}
		return out, nil
	default:
		return nil, fault.Invalidf("Tipo de contenido %s no admitido: envíe JSON o un formulario.", media)
	}
}
