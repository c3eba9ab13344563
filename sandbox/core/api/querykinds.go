package api

// queryKinds gives every query parameter name of the reference catalogue
// the kind of value it takes. The reference lists names and the required
// flag only; the kinds follow the names and the fields they filter (a
// ...Guid filters a GUID, a ...TimeFrom a date-time, a ...DateFrom a
// date) and the values the sandbox's handlers already accepted. One name
// has one kind on every endpoint. QueryParams fails for a name missing
// here, so the sandbox refuses to start rather than leave a parameter
// unchecked by accident. docs/choices.md ("Choices where the spec and
// the reference are silent") lists the guesses.
var queryKinds = map[string]QueryParam{
	// Paging (spec: integers, the first page is 1).
	"page":         {Kind: QueryPositive},
	"itemsPerPage": {Kind: QueryPositive},

	// Changes logs.
	"changeType": {Kind: QueryEnum, Enum: []string{"add", "edit", "delete"}},

	// Date-times.
	"from":               {Kind: QueryDateTime},
	"changedFrom":        {Kind: QueryDateTime},
	"changeTimeFrom":     {Kind: QueryDateTime},
	"changeTimeTo":       {Kind: QueryDateTime},
	"completionTimeFrom": {Kind: QueryDateTime},
	"completionTimeTo":   {Kind: QueryDateTime},
	"creationTimeFrom":   {Kind: QueryDateTime},
	"creationTimeTo":     {Kind: QueryDateTime},
	"visitTimeFrom":      {Kind: QueryDateTime},
	"visitTimeTo":        {Kind: QueryDateTime},

	// Dates (a whole date-time is accepted too).
	"actionPriceDateFrom": {Kind: QueryDate},
	"actionPriceDateTo":   {Kind: QueryDate},
	"changeDateFrom":      {Kind: QueryDate},
	"changeDateTo":        {Kind: QueryDate},
	"creationDateFrom":    {Kind: QueryDate},
	"creationDateTo":      {Kind: QueryDate},
	"dateFrom":            {Kind: QueryDate},
	"dateTo":              {Kind: QueryDate},
	"dueDateFrom":         {Kind: QueryDate},
	"dueDateTo":           {Kind: QueryDate},
	"issueDate":           {Kind: QueryDate},
	"publishDateFrom":     {Kind: QueryDate},
	"publishDateTo":       {Kind: QueryDate},
	"taxDateFrom":         {Kind: QueryDate},
	"taxDateTo":           {Kind: QueryDate},
	"validFrom":           {Kind: QueryDate},
	"validTo":             {Kind: QueryDate},

	// GUIDs.
	"categoryGuid":        {Kind: QueryGUID},
	"customerGuid":        {Kind: QueryGUID},
	"defaultCategoryGuid": {Kind: QueryGUID},
	"guid":                {Kind: QueryGUID},
	"paymentMethodGuid":   {Kind: QueryGUID},
	"productGuid":         {Kind: QueryGUID},
	"salesChannelGuid":    {Kind: QueryGUID},
	"shippingGuid":        {Kind: QueryGUID},
	"supplierGuid":        {Kind: QueryGUID},
	"template":            {Kind: QueryGUID},
	"productGuids":        {Kind: QueryGUIDList},

	// Whole numbers (ids).
	"articleId":                 {Kind: QueryInteger},
	"availabilityId":            {Kind: QueryInteger},
	"availabilityWhenSoldOutId": {Kind: QueryInteger},
	"idFrom":                    {Kind: QueryInteger},
	"idTo":                      {Kind: QueryInteger},
	"lastId":                    {Kind: QueryInteger},
	"pageId":                    {Kind: QueryInteger},
	"statusId":                  {Kind: QueryInteger},
	"userId":                    {Kind: QueryInteger},

	// Decimal numbers.
	"vatRate":                {Kind: QueryNumber},
	"orderableMaxAmount":     {Kind: QueryNumber},
	"orderableMaxAmountFrom": {Kind: QueryNumber},
	"orderableMaxAmountTo":   {Kind: QueryNumber},
	"orderableMinAmount":     {Kind: QueryNumber},
	"orderableMinAmountFrom": {Kind: QueryNumber},
	"orderableMinAmountTo":   {Kind: QueryNumber},
	"shippingPrice":          {Kind: QueryNumberOrBoolean},

	// Booleans.
	"active":                             {Kind: QueryBoolean},
	"closed":                             {Kind: QueryBoolean},
	"deleteChildren":                     {Kind: QueryBoolean},
	"deleteUsed":                         {Kind: QueryBoolean},
	"force":                              {Kind: QueryBoolean},
	"hasCompanyId":                       {Kind: QueryBoolean},
	"hasProofPaymentCode":                {Kind: QueryBoolean},
	"hasTaxId":                           {Kind: QueryBoolean},
	"hasVatId":                           {Kind: QueryBoolean},
	"includeClosedAndCancelledOrders":    {Kind: QueryBoolean},
	"includeUnregisteredCustomers":       {Kind: QueryBoolean},
	"isActive":                           {Kind: QueryBoolean},
	"isValid":                            {Kind: QueryBoolean},
	"onlyWithClaim":                      {Kind: QueryBoolean},
	"paid":                               {Kind: QueryBoolean},
	"removeReference":                    {Kind: QueryBoolean},
	"restocked":                          {Kind: QueryBoolean},
	"reusable":                           {Kind: QueryBoolean},
	"sendRegistrationEmail":              {Kind: QueryBoolean},
	"suppressDocumentGeneration":         {Kind: QueryBoolean},
	"suppressEmailSending":               {Kind: QueryBoolean},
	"suppressExistenceCheck":             {Kind: QueryBoolean},
	"suppressHistoricalMandatoryFields":  {Kind: QueryBoolean},
	"suppressHistoricalPaymentChecking":  {Kind: QueryBoolean},
	"suppressHistoricalShippingChecking": {Kind: QueryBoolean},
	"suppressMandatoryFieldsCheck":       {Kind: QueryBoolean},
	"suppressOrderChecking":              {Kind: QueryBoolean},
	"suppressProductChecking":            {Kind: QueryBoolean},
	"suppressProductGuidCheck":           {Kind: QueryBoolean},
	"suppressSmsSending":                 {Kind: QueryBoolean},
	"suppressStockMovements":             {Kind: QueryBoolean},
	"system":                             {Kind: QueryBoolean},
	"visible":                            {Kind: QueryBoolean},

	// Free text: codes and code ranges, names, e-mails, lists of codes,
	// and the parameters whose handlers check them against the e-shop
	// (include sections, language, status and type lists).
	"articleLanguage":         {},
	"brandCode":               {},
	"brandName":               {},
	"code":                    {},
	"codeFrom":                {},
	"codeTo":                  {},
	"currency":                {},
	"currencyCode":            {},
	"customerGroupCode":       {},
	"discountType":            {},
	"email":                   {},
	"event":                   {},
	"flag":                    {},
	"include":                 {},
	"invoiceCode":             {},
	"invoiceCodeFrom":         {},
	"invoiceCodeTo":           {},
	"language":                {},
	"orderCode":               {},
	"orderCodeFrom":           {},
	"orderCodeTo":             {},
	"orderCodes":              {},
	"phone":                   {},
	"productCode":             {},
	"productCodes":            {},
	"proformaInvoiceCode":     {},
	"proformaInvoiceCodeFrom": {},
	"proformaInvoiceCodeTo":   {},
	"proofPaymentCode":        {},
	"shippingCompanyCode":     {},
	"sourceId":                {},
	"status":                  {},
	"type":                    {},
	"userEmail":               {},
	"varSymbol":               {},
	"visibility":              {},
}
