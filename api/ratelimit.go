package api

// RateLimits configures the login, registration, upload and chat limits (requests per minute).
type RateLimits struct {
	LoginPerAccount int // default 10
	LoginPerIP      int // default 30
	RegisterPerIP   int // default 5
	UploadPerMember int // default 10: a deposit proof or two ID photos at a time, with retries
	ChatPerMember   int // default 20: customer service messages a member sends
}

func (r RateLimits) withDefaults() RateLimits {
	if r.LoginPerAccount <= 0 {
		r.LoginPerAccount = 10
	}
	if r.LoginPerIP <= 0 {
		r.LoginPerIP = 30
	}
	if r.RegisterPerIP <= 0 {
		r.RegisterPerIP = 5
	}
	if r.UploadPerMember <= 0 {
		r.UploadPerMember = 10
	}
	if r.ChatPerMember <= 0 {
		r.ChatPerMember = 20
	}
	return r
}
