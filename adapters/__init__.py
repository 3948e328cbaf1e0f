"""The outermost layer, which wires the rest: the Teams and Slack front ends, the web chat, the
page view and `/sources/` routes, the HTTP server (with the document-system webhook), the
terminal front end, the command line, and the role directory the front ends share."""
