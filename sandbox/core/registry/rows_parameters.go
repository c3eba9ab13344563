package registry

// parameterRows: filtering, surcharge and variant parameters and their
// values. Their identifiers, the values' included, are given in the
// selected language (spec, common query parameters, rule 3): LangID on
// every row, so a PATCH with language writes a translated identifier and
// only that one names the record in that language.
func parameterRows() []*Resource {
	return []*Resource{
		{
			Name: "filtering-parameters", IDField: "code", SlugFrom: "name", LangID: true,
			LangFields: []string{"code", "name", "displayName", "description"},
			Ops: []*Op{
				paged("GetListOfFilteringParameters", "filteringParameters"),
				create("CreateFilteringParameter", ""),
				detail("GetDetailOfFilteringParameter", "code", ""),
				update("UpdateFilteringParameter", "code", ""),
				del("DeleteFilteringParameter", "code"),
			},
		},
		{
			Name: "filtering-parameters/values", IDField: "valueIndex", SlugFrom: "name", BulkMax: 100, LangID: true,
			Parent: &Parent{Resource: "filtering-parameters", Var: "code", Field: "values"},
			Ops: []*Op{
				{Operation: "CreateFilteringParameterValue", Kind: BulkCreate, Body: "paramValues", Answer: AnswerParent},
				update("UpdateFilteringParameterValue", "valueIndex", "").answer(AnswerParent),
				del("DeleteFilteringParameterValue", "valueIndex"),
			},
		},
		{
			Name: "surcharge-parameters", IDField: "code", SlugFrom: "name", LangID: true, Alt: []string{"id"},
			LangFields: []string{"code", "name", "displayName", "description"},
			Ops: []*Op{
				paged("GetListOfSurchargeParameters", "surchargeParameters"),
				create("CreateSurchargeParameter", "surchargeParameter"),
				detail("GetDetailOfSurchargeParameter", "code", "surchargeParameter"),
				update("UpdateSurchargeParameter", "code", "surchargeParameter"),
				del("DeleteSurchargeParameterByIndex", "code"),
			},
		},
		{
			Name: "surcharge-parameters/values", IDField: "valueIndex", SlugFrom: "description", BulkMax: 100, LangID: true,
			Rename: map[string]string{"name": "description"},
			Parent: &Parent{Resource: "surcharge-parameters", Var: "code|paramIndex", Field: "values"},
			Ops: []*Op{
				{Operation: "CreateSurchargeParameterValue", Kind: BulkCreate, Body: "paramValues", Key: "surchargeParameter", Answer: AnswerParent},
				update("UpdateSurchargeParameterValue", "valueIndex", "surchargeParameter").answer(AnswerParent),
				del("DeleteSurchargeParameterValue", "valueIndex"),
			},
		},
		{
			Name: "variant-parameters", IDField: "paramIndex", SlugFrom: "paramName", LangID: true, Alt: []string{"id"},
			LangFields: []string{"paramIndex", "paramName", "displayName"},
			Ops: []*Op{
				paged("GetListOfVariantParameters", "parameters").sections(Section{Name: "values", Fields: []string{"values"}}),
				create("CreateVariantParameter", ""),
				detail("GetDetailOfVariantParameter", "paramIndex", ""),
				update("UpdateVariantParameter", "paramIndex", ""),
				del("DeleteVariantParameter", "paramIndex"),
			},
		},
		{
			Name: "variant-parameters/values", IDField: "rawValue", SlugFrom: "paramValue", BulkMax: 100, LangID: true,
			LangFields: []string{"paramValue"},
			Parent:     &Parent{Resource: "variant-parameters", Var: "paramIndex", Field: "values"},
			Ops: []*Op{
				{Operation: "CreateVariantParameterValue", Kind: BulkCreate, Body: "paramValues", Answer: AnswerParent},
				update("UpdateVariantParameterValue", "rawValue", "").answer(AnswerParent),
				del("DeleteVariantParameterValue", "rawValue"),
			},
		},
	}
}
