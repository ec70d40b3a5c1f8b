"""Request bodies: read with a limit, then checked against one small model per endpoint.

A body is refused before it is read whole: one that is not JSON by its Content-Type (415, a page
of another site cannot post JSON here without asking first), one whose Content-Length says it is
over MAX_BODY, or one that goes past MAX_BODY while it is read (413). The JSON is then parsed and
checked by pydantic (well kept, and strict: a seed of 1.9, 1e400 or `true` is not a whole number,
JSON nested past its depth limit is refused, not a RecursionError); a mistake is a BodyError (a
GameError, answered 400) naming the field and what it must be, never quoting more than a line of
what was sent. An empty body is an empty object, so `POST .../step` needs none.
"""

from __future__ import annotations

from typing import ClassVar, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from ..errors import GameError, shown

MAX_BODY = 1 << 20  # 1 MB: a record of thousands of moves is far smaller
JSON = "application/json"


class BodyError(GameError):
    """A request body that is refused; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class Body(BaseModel):
    """A request body: a JSON object with only the fields declared (strict types, none coerced)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    # What each field must be, as the message of a mistake says it.
    MUST: ClassVar[dict] = {}


class NoBody(Body):
    """Endpoints that take nothing (step, undo, replay a table)."""


class NewTable(Body):
    ruleset: Optional[StrictStr] = None
    options: Optional[dict[StrictStr, Union[StrictStr, StrictInt, StrictBool]]] = None
    seats: Optional[list[StrictStr]] = None
    seed: Optional[StrictInt] = Field(default=None, ge=0, lt=2 ** 63)
    MUST: ClassVar[dict] = {"ruleset": "the name of a ruleset (text)",
            "options": "an object of NAME: VALUE (text, a whole number or true/false)",
            "seats": "a list: one 'human' or agent spec (text) per player",
            "seed": "a whole number from 0 to 2**63 - 1, or null"}


class Move(Body):
    move: Optional[StrictStr] = None
    MUST: ClassVar[dict] = {"move": "a move in notation (text)"}


class NewReplay(Body):
    text: Optional[StrictStr] = None
    name: Optional[StrictStr] = None
    MUST: ClassVar[dict] = {"text": "the text of a record", "name": "the record's file name (text)"}


def _message(error: ValidationError, model: type) -> str:
    """The first mistake as a sentence: the field, what it must be, and (briefly) what it was."""
    first = error.errors(include_url=False)[0]
    kind, loc = first["type"], first["loc"]
    if kind == "json_invalid":
        reason = first.get("ctx", {}).get("error", "")
        if "recursion limit" in reason:
            return "the request body is nested too deeply (JSON of at most a few levels is expected)"
        return "the request body is not JSON"
    if not loc:
        return "the request body must be a JSON object"
    field = str(loc[0])
    if kind == "extra_forbidden":
        known = ", ".join(model.model_fields) or "none"
        return f"unknown field {shown(field)} in the request body (its fields: {known})"
    must = model.MUST.get(field, "")
    got = first.get("input")
    where = field + "".join(f"[{shown(part)}]" for part in loc[1:2])  # a union's member is not named
    return f"{where} must be {must}, not {shown(got)}" if must else f"{where}: {first['msg']}"


async def read(request, model: type = NoBody) -> Body:
    """The request's body checked against `model`; BodyError (415, 413 or 400) says why not."""
    length = request.headers.get("content-length")
    chunked = "chunked" in request.headers.get("transfer-encoding", "").lower()
    if length is not None:
        if not length.isdigit() or len(length) > 18:
            raise BodyError(f"Content-Length {shown(length)} is not a number of bytes")
        if int(length) == 0:
            return model()
    elif not chunked:
        return model()
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != JSON:
        raise BodyError(f"send the request body as JSON (Content-Type: {JSON})", 415)
    if length is not None and int(length) > MAX_BODY:
        raise BodyError(f"the request body is {int(length):,} bytes: at most {MAX_BODY:,} are read", 413)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise BodyError(f"the request body is over {MAX_BODY:,} bytes: at most that much is read", 413)
    if not bytes(raw).strip():
        return model()
    try:
        return model.model_validate_json(bytes(raw))
    except ValidationError as e:
        raise BodyError(_message(e, model)) from None


__all__ = ["read", "BodyError", "MAX_BODY", "NoBody", "NewTable", "Move", "NewReplay"]
