package i18n

import (
	"time"

	"parking/internal/money"
)

// FieldName is a form field's name as a coded message's argument: the Spanish
// message of the API says it as the API names it ("phone"), a page and its scripts
// as the form labels it, in the page's language («Teléfono»): a page never shows an
// internal field name (docs/languages.md#messages-as-codes).
type FieldName string

// Day is a calendar day as a coded message's argument, written in the language's
// date form; a time.Time argument is written with its time of day.
type Day time.Time

// fieldLabels are the labels of the forms' fields: a field's name → the catalogue
// key of its label.
var fieldLabels = map[string]string{
	"phone": "common.telefono", "telefono": "common.telefono", "email": "common.correo_electronico",
	"full_name": "common.nombre_y_apellidos", "nombre": "common.nombre", "name": "common.nombre",
	"license_plate": "common.matricula", "brand": "common.marca", "model": "common.modelo", "color": "common.color",
	"notes": "common.notas", "entry_date": "common.entrada", "exit_date": "common.salida",
	"vehicle_type": "common.tipo_de_vehiculo", "id_main_service": "common.servicio_principal",
	"additional_services": "common.servicios_adicionales", "cod_parking_spot": "common.plaza",
	"reference": "common.referencia", "password": "common.contrasena", "currentPassword": "profile.contrasena_actual",
	"newPassword": "common.nueva_contrasena", "confirmPassword": "common.repita_la_contrasena",
	"capacity": "admin_settings.capacidad_plazas", "sellable": "admin_settings.plazas_a_la_venta_por",
	"photo_retention_days": "admin_settings.conservar_las_fotos_dias_tras", "vat_rate": "admin_settings.iva_incluido_en_los_precios",
	"tax_id": "common.nif", "address": "common.direccion", "description": "common.descripcion",
	"price": "admin_catalog.precio", "daily_price": "admin_catalog.precio_diario", "coefficient": "admin_catalog.coeficiente",
	"min_days": "admin_catalog.desde_dias", "max_days": "admin_catalog.hasta_dias",
	"mileage_km": "admin_detail.kilometros", "fuel_percent": "admin_detail.combustible_o_carga", "damage_notes": "admin_detail.danos_observados",
	"nif": "admin_detail.nif_nie_o_cif", "razon_social": "common.nombre_o_razon_social", "token": "profile.codigo_del_enlace",
	"file_path":          "admin_detail.direccion_url_de_la_foto",
	"exit_grace_minutes": "admin_settings.exit_grace", "direction": "gate.direction", "at": "gate.at", "plate": "common.matricula",
	"language": "layout.language",
	"from":     "common.desde", "to": "common.hasta",
}

// FieldLabel is field as its form labels it in lang, in «», or the name as it is
// when no form has it.
func FieldLabel(lang, field string) string {
	key, ok := fieldLabels[field]
	if !ok {
		return field
	}
	return "«" + T(lang, key) + "»"
}

// Words is the text of the coded message key in lang, its arguments (placeholder
// name/value pairs) written in lang's forms: amounts (money.Cents), days (Day) and
// moments (time.Time) as the pages write them, field names (FieldName) as the forms
// label them, or as the API names them when apiNames is set (the Spanish message of
// the API, which speaks to programs).
func Words(lang, key string, apiNames bool, args ...any) string {
	if len(args) == 0 {
		return T(lang, key)
	}
	out := make([]any, len(args))
	for i, a := range args {
		if i%2 == 0 {
			out[i] = a
			continue
		}
		switch v := a.(type) {
		case FieldName:
			if apiNames {
				out[i] = string(v)
			} else {
				out[i] = FieldLabel(lang, string(v))
			}
		case money.Cents:
			out[i] = Money(lang, v)
		case Day:
			out[i] = Date(lang, time.Time(v))
		case Days:
			out[i] = v.in(lang)
		case time.Time:
			out[i] = moment(lang, apiNames, v)
		case Term:
			out[i] = T(lang, string(v))
		default:
			out[i] = a
		}
	}
	return T(lang, key, out...)
}
