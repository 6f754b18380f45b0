"""After a password login over SSH: offer to link the public key the
client showed, so that the next call logs in with the key alone."""

from __future__ import annotations

from door.caller.side import CallerSide
from door.records.store import StoreError
from door.ui.prompts import ask_choice, show_page

__all__ = ["offer_key_link"]


async def offer_key_link(side: CallerSide, key: str | None) -> None:
    """After a password login over SSH, offer to link the public key ``key``
    the client showed."""
    display, ctx, caller = side.display, side.ctx, side.caller
    if caller.account is None or key is None:
        return
    if await ctx.store.accounts.key_matches(caller.account.id, key):
        return
    tail = key.split()[1][-12:] if len(key.split()) > 1 else key[-12:]
    answer = await ask_choice(display, "SSH key", [
        "Your SSH client offered a public key:",
        f"  {key.split()[0]} ...{tail}",
        "",
        f"Link it to {caller.name}, so that `ssh {caller.name}@...` logs you in without a password?",
        "",
        "Press Y to link it, N to leave it.",
    ], "YN")
    if answer == "Y":
        try:
            await ctx.store.accounts.add_ssh_key(caller.account.id, key)
        except StoreError:
            await show_page(display, "SSH key", [
                "The door cannot write its records right now: the key is not linked.",
                "", "It will be offered again at your next password login."])
            return
        await show_page(display, "SSH key", [
            "The key is linked.",
            "",
            f"From now on `ssh {caller.name}@...` with this key logs you in without a password.",
        ])
