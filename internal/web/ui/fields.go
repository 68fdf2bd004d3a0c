package ui

import (
	"regexp"

	"parking/internal/i18n"
)

// A page never shows an internal field name: the refusals of the operations say
// "el campo phone"; the pages say the field as its form labels it, in the page's
// language (docs/languages.md#what-remains). fieldLabels are those labels: a
// field's name → the catalogue key of its label on the forms.
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
}

// fieldRE finds a field named in a message: "campo phone", "campo «x»" excluded.
var fieldRE = regexp.MustCompile(`\bcampo ([A-Za-z_][A-Za-z0-9_.]*)`)

// foreignPhoneRE finds internal/input's refusal of a phone abroad typed without its
// country code, and the number as it should be typed (docs/input-rules.md#phones).
var foreignPhoneRE = regexp.MustCompile(`sin el prefijo de su país[^+]*(\+\d[\d \-]*\d)`)

// humanize names the fields of msg as the forms label them, in lang
// ("El campo phone es obligatorio." → "El campo «Teléfono» es obligatorio.").
// A name the forms do not have is left as it is. A phone abroad typed without its
// country code is the one refusal said whole in lang, with its example
// (docs/languages.md#foreign-phones).
func humanize(lang, msg string) string {
	if m := foreignPhoneRE.FindStringSubmatch(msg); m != nil {
		return i18n.T(lang, "js.ui.phone_country_code", "Example", m[1])
	}
	return fieldRE.ReplaceAllStringFunc(msg, func(m string) string {
		name := fieldRE.FindStringSubmatch(m)[1]
		key, ok := fieldLabels[name]
		if !ok {
			return m
		}
		return "campo «" + i18n.T(lang, key) + "»"
	})
}
