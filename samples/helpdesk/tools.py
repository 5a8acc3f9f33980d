"""Tools of the helpdesk sample, over fake data. They are plain functions; any model may call them."""

from __future__ import annotations

import re

from subagents import Reply, ToolContext

EMPLOYEE = {
    "name": "Jordan Lee",
    "email": "jordan.lee@contoso.example",
    "pto_total": 20,
    "pto_used": 8,
    "pending_request": "Dec 22 to Dec 24",
    "next_payday": "Friday, December 4",
    "pay_frequency": "every other Friday",
    "gross_per_period": "$3,250.00",
    "deposit_account": "6789",
}


def pto_balance() -> str:
    """How many paid time off (vacation) days are left this year."""
    left = EMPLOYEE["pto_total"] - EMPLOYEE["pto_used"]  # type: ignore[operator]
    return f"You have {left} PTO days left this year (out of {EMPLOYEE['pto_total']})."


def pto_used() -> str:
    """How many paid time off (vacation) days were already taken or used this year."""
    return f"You have used {EMPLOYEE['pto_used']} PTO days so far this year."


def pto_request(request: str) -> str:
    """Put in a PTO request for dates (book, request or put in days off)."""
    dates = re.findall(
        r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b", request, re.I
    )
    when = " to ".join(dates) if dates else "the dates you gave"
    return (
        f"I've submitted your PTO request for {when}; your manager will be notified to approve it."
    )


def next_payday() -> str:
    """When the next paycheck (payday) arrives: the date you get paid next."""
    return (
        f"Your next payday is {EMPLOYEE['next_payday']}; you are paid {EMPLOYEE['pay_frequency']}."
    )


def w2_location() -> str:
    """Where to find the W-2 tax form."""
    return "Your W-2 form is in the payroll portal under Documents > Tax forms; 2026 forms arrive by January 31."


def gross_pay() -> str:
    """Gross income or salary per pay period."""
    return f"Your gross pay is {EMPLOYEE['gross_per_period']} per pay period."


def reset_password(request: str) -> str:
    """Reset a forgotten or expired password, or unlock a locked account."""
    system = "VPN" if "vpn" in request.lower() else "network"
    return (
        f"A {system} password reset link was sent to {EMPLOYEE['email']}; it expires in 30 minutes."
    )


_ACCOUNT = re.compile(r"\b(\d{4,17})\b")
_YES = re.compile(r"\b(yes|yep|confirm|correct|go ahead|sure)\b", re.I)
_NO = re.compile(r"\b(no|cancel|stop|nope)\b", re.I)
_ABOUT_DEPOSIT = re.compile(r"account|deposit|number|bank|routing|digits", re.I)


def change_direct_deposit(ctx: ToolContext) -> Reply:
    """Change the bank account used for direct deposit of pay (a short dialogue).

    The parent splits the user's message, so ``ctx.scoped_request`` is only this dialogue's part
    ("It's 123456789"); a message that is not about the dialogue at all is handed back whole.
    """
    state = ctx.state
    request = ctx.scoped_request
    step = state.get("step", "start")
    if step == "start":
        state["step"] = step = "account"
        if _ACCOUNT.search(request) is None:
            return Reply(
                text="Sure, I can change your direct deposit. What is the new account number?",
                done=False,
            )
    if step == "account":
        found = _ACCOUNT.search(request)
        if found is None and _NO.search(request):
            state.clear()
            return Reply(text="OK, I cancelled the change; your direct deposit stays as it is.")
        if found is None:
            handed_back = () if _ABOUT_DEPOSIT.search(request) else (request,)
            return Reply(
                text="I need the new account number (digits only) to continue.",
                done=False,
                open_questions=handed_back,
            )
        account = found.group(1)
        state.update(step="confirm", account=account)
        return Reply(
            text=f"Please confirm: switch direct deposit to the account ending in {account[-4:]}? (yes/no)",
            done=False,
        )
    if step == "confirm":
        if _YES.search(request):
            account = state.get("account", "")
            state.clear()
            return Reply(
                text=f"Done: your pay will go to the account ending in {account[-4:]} from the next payroll."
            )
        if _NO.search(request):
            state.clear()
            return Reply(text="OK, I cancelled the change; your direct deposit stays as it is.")
        return Reply(
            text="Please answer yes or no: should I make the change?",
            done=False,
            open_questions=(request,),
        )
    state.clear()
    return Reply(text="Let's start over: what is the new account number?", done=False)
