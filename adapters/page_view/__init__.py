"""The page view: a cited PDF page rendered server-side with the quoted span highlighted.

`pdf_pages` renders pages and reads their character boxes (pypdfium2, cached by the file's
content hash); `highlight` matches a quote to those boxes; `route` serves
`GET /sources/{rulebook_id}/view?page=N&cite=…` under the access rules of `/sources/`.
"""
