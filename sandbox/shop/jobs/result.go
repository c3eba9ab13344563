package jobs

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// ResultsCollection holds result files by job id; each expires at the
// job's validUntil on the sandbox clock.
const ResultsCollection = "job-results"

type resultFile struct {
	Name    string `json:"name"`
	Content string `json:"content"` // base64 of the gzip file
}

func resultName(j *Job) string {
	if j.Operation == "GeneralDocumentDownload" {
		if format := j.Vars["format"]; format == "csv" {
			return j.ID + ".csv.gz"
		}
	}
	return j.ID + ".jsonl.gz"
}

// resultURL is where a job's file is served: at the e-shop's address,
// without API headers, as the SDK opens it.
func (s *Service) resultURL(j *Job) string {
	return s.Site.EshopURL(j.EshopID) + "/job-results/" + j.ID + "/" + resultName(j)
}

func (s *Service) saveResult(j *Job, file []byte, until time.Time) error {
	raw, err := json.Marshal(resultFile{Name: resultName(j), Content: base64.StdEncoding.EncodeToString(file)})
	if err != nil {
		return err
	}
	return s.Store.Update(func(tx *store.Tx) error {
		_, err := tx.PutExpiring(j.EshopID, ResultsCollection, j.ID, raw, until)
		return err
	})
}

// Routes are the e-shop routes serving result files.
func (s *Service) Routes() []api.Route {
	return []api.Route{{Operation: "jobs.result", Method: http.MethodGet, Path: "/job-results/{jobId}/{file}", Handler: s.serveResult}}
}

func (s *Service) serveResult(r *api.Request) (any, error) {
	eshopID, _ := strconv.Atoi(r.Var("eshopId"))
	var f resultFile
	err := s.Store.View(func(tx *store.Tx) error {
		raw, err := tx.Get(eshopID, ResultsCollection, r.Var("jobId"))
		if errors.Is(err, sandbox.ErrNotFound) {
			return sandbox.NotFound(r.Var("jobId"), "Job %q has no result file, or it is no longer valid.", r.Var("jobId"))
		}
		if err != nil {
			return err
		}
		return json.Unmarshal(raw, &f)
	})
	if err != nil {
		return nil, err
	}
	if f.Name != r.Var("file") {
		return nil, sandbox.NotFound(r.Var("file"), "Job %q has no file %q.", r.Var("jobId"), r.Var("file"))
	}
	body, err := base64.StdEncoding.DecodeString(f.Content)
	if err != nil {
		return nil, err
	}
	return &api.Raw{ContentType: "application/gzip", Body: body}, nil
}
