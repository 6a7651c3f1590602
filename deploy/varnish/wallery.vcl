# Varnish in front of Wallery (Varnish 6 or 7): caches the embed API, the
# hosted wall pages, the media copies and the built assets; passes everything
# else (the v2 API is per key and counted per call, the management API and
# console are private, the live stream must not be buffered). Answers are
# filed under their Surrogate-Key tags; Wallery purges them with
#   BAN / HTTP/1.1
#   Surrogate-Key: wallery-w12 wallery-a3
# (CDN_PURGE=varnish:http://this-varnish:6081), which bans every object
# carrying one of the tags. Only the addresses in `purgers` may ban.
vcl 4.1;

import std;

backend wallery {
    .host = "127.0.0.1";
    .port = "3000";
    # a sick backend lets answers be served stale up to a day (stale-if-error)
    .probe = {
        .url = "/readyz";
        .interval = 5s;
        .timeout = 2s;
        .window = 5;
        .threshold = 3;
    }
}

acl purgers {
    "127.0.0.1";
    "::1";
    # the Wallery instances' addresses, e.g. "10.0.0.0"/8;
}

sub vcl_recv {
    if (req.method == "BAN") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        # tags are lowercase letters, digits and - (src/cdn/tags.ts): nothing a regex could trip on
        if (!req.http.Surrogate-Key || req.http.Surrogate-Key !~ "^[a-z0-9 -]+$") {
            return (synth(400, "Surrogate-Key: tag tag…"));
        }
        # obj.* only: the ban lurker clears matching objects in the background too.
        # A ban expression is split at spaces: the regex uses \s (VCL strings have no escapes)
        if (std.ban("obj.http.Surrogate-Key ~ (^|\s)(" + regsuball(req.http.Surrogate-Key, " +", "|") + ")(\s|$)")) {
            return (synth(200, "Banned"));
        }
        return (synth(400, std.ban_error()));
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # while Wallery answers, a stale copy is served only stale-while-revalidate's 30 s;
    # while it does not, as long as stale-if-error allows (the grace set below)
    if (std.healthy(req.backend_hint)) {
        set req.grace = 30s;
    }
    # the live stream (Server-Sent Events): straight through, never buffered
    if (req.url ~ "^/api/embed/v1/walls/[^/?]+/stream") {
        return (pipe);
    }
    if (req.url ~ "^/api/embed/v1/" || req.url ~ "^/walls/" || req.url ~ "^/media/" || req.url ~ "^/assets/" || req.url ~ "^/embed/v1/") {
        # public answers: a cookie of the site around them changes nothing
        unset req.http.Cookie;
        unset req.http.Authorization;
        return (hash);
    }
    # the v2 API (per key, counted per call), the management API, the console, metrics: not cached
    return (pass);
}

sub vcl_pipe {
    set bereq.http.Connection = "close";
}

sub vcl_backend_response {
    # an error without caching instructions is not kept (a wall not yet live must show as soon as it is)
    if (beresp.status >= 400 && !beresp.http.Cache-Control) {
        set beresp.ttl = 1s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    # Cache-Control's s-maxage sets the TTL (Varnish reads it before max-age);
    # stale-if-error=86400: a day of grace, used only while the backend is sick (vcl_recv)
    if (beresp.http.Cache-Control ~ "stale-if-error") {
        set beresp.grace = 1d;
    }
}

sub vcl_deliver {
    # the tags are for this cache only
    unset resp.http.Surrogate-Key;
    # for tests and dashboards: was it a hit?
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}
