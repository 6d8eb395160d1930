"""allauth's texts that our pages and emails show, worded again in the project catalog (``locale/``).

allauth brings its own Hungarian and German catalogs, and they translate every text of its that the site
shows (log in, sign up, addresses, passwords, sessions, and the emails it sends). The project catalog is
read before any app's, so a text listed here is worded by us instead, where allauth's words are not the
site's:

- the address: the site speaks to a player informally, and allauth's German says "Sie" in places (its emails
  above all) where the rest of the site says "du";
- the glossary's words (docs/glossary/platform.md): Hungarian "e-mail-cím", "Bejelentkezés", "Regisztráció";
- a few slips (a stray quote mark after the date of a security notice, "A új", "Die neue Wert").

The site never imports this module: ``gettext_noop`` only marks each text for ``makemessages``. Every text must
stay exactly allauth's, character for character (tests/platform/accounts/test_languages.py checks that each is
still one allauth uses, and that our wording is the one read).
"""

from django.utils.translation import gettext_noop

TEXTS = (
    # Pages: log in, sign up, the entrance's errors (the glossary's words; Hungarian "e-mail-cím").
    gettext_noop("Sign In"),
    gettext_noop("Sign Up"),
    gettext_noop("Email"),
    gettext_noop("Email address"),
    gettext_noop("Username"),
    gettext_noop("Username or email"),
    gettext_noop("Username can not be used. Please use other username."),
    gettext_noop("This account is currently inactive."),
    gettext_noop("The email address and/or password you specified are not correct."),
    gettext_noop("The username and/or password you specified are not correct."),
    gettext_noop("A user is already registered with this email address."),
    gettext_noop("Your primary email address must be verified."),
    gettext_noop("Incorrect password."),
    gettext_noop("You must type the same password each time."),
    gettext_noop("Invalid or expired key."),
    gettext_noop("The new value must be different from the current one."),
    # Reauthentication (before an address or password changes).
    gettext_noop("Use your password"),
    gettext_noop("Please reauthenticate to safeguard your account."),
    gettext_noop("Enter your password:"),
    # Addresses: confirming, changing.
    gettext_noop("Verify Your Email Address"),
    gettext_noop(
        "We have sent an email to you for verification. Follow the link provided to finalize the signup "
        "process. If you do not see the verification email in your main inbox, check your spam folder. "
        "Please contact us if you do not receive the verification email within a few minutes."
    ),
    gettext_noop("Confirm Email Address"),
    gettext_noop(
        "Please confirm that <a href=\"mailto:%(email)s\">%(email)s</a> is an email address for user "
        "%(user_display)s."
    ),
    gettext_noop("Unable to confirm %(email)s because it is already confirmed by a different account."),
    gettext_noop(
        "This email confirmation link expired or is invalid. Please <a href=\"%(email_url)s\">issue a new "
        "email confirmation request</a>."
    ),
    gettext_noop("Email Address"),
    gettext_noop("Current email"),
    gettext_noop("Your email address is still pending verification."),
    gettext_noop("Re-send Verification"),
    gettext_noop("Change Email"),
    gettext_noop("Email Addresses"),
    gettext_noop("You have confirmed %(email)s."),
    gettext_noop("Successfully signed in as %(name)s."),
    # Passwords.
    gettext_noop(
        "Forgotten your password? Enter your email address below, and we'll send you an email allowing "
        "you to reset it."
    ),
    gettext_noop(
        "We have sent you an email. If you have not received it please check your spam folder. Otherwise "
        "contact us if you do not receive it in a few minutes."
    ),
    gettext_noop(
        "The password reset link was invalid, possibly because it has already been used.  Please request "
        "a <a href=\"%(passwd_reset_url)s\">new password reset</a>."
    ),
    gettext_noop("Set Password"),
    gettext_noop("IP Address"),
    gettext_noop("Started At"),
    # The emails allauth sends (in the recipient's language: accounts/adapter.py).
    gettext_noop(
        "You are receiving this email because you or someone else tried to signup for an\naccount using "
        "email address:\n\n%(email)s\n\nHowever, an account using that email address already exists.  In "
        "case you have\nforgotten about this, please use the password forgotten procedure to "
        "recover\nyour account:\n\n%(password_reset_url)s"
    ),
    gettext_noop("You are receiving this mail because the following change was made to your account:"),
    gettext_noop(
        "If you do not recognize this change then please take proper security precautions immediately. "
        "The change to your account originates from:\n\n- IP address: %(ip)s\n- Browser: "
        "%(user_agent)s\n- Date: %(timestamp)s"
    ),
    gettext_noop("Your email has been changed from %(from_email)s to %(to_email)s."),
    gettext_noop("Email Changed"),
    gettext_noop("Your email has been confirmed."),
    gettext_noop("Email Confirmation"),
    gettext_noop(
        "You're receiving this email because user %(user_display)s has given your email address to "
        "register an account on %(site_domain)s."
    ),
    gettext_noop("To confirm this is correct, go to %(activate_url)s"),
    gettext_noop("Please Confirm Your Email Address"),
    gettext_noop("Email address %(deleted_email)s has been removed from your account."),
    gettext_noop("Email Removed"),
    gettext_noop("This mail can be safely ignored if you did not initiate this action."),
    gettext_noop("Password Changed"),
    gettext_noop(
        "You're receiving this email because you or someone else has requested a password reset for your "
        "user account.\nIt can be safely ignored if you did not request a password reset. Click the link "
        "below to reset your password."
    ),
    gettext_noop("In case you forgot, your username is %(username)s."),
    gettext_noop("Password Reset Email"),
    gettext_noop("Your password has been reset."),
    gettext_noop("Your password has been set."),
    gettext_noop(
        "You are receiving this email because you, or someone else, tried to access an account with email "
        "%(email)s. However, we do not have any record of such an account in our database."
    ),
    gettext_noop("If it was you, you can sign up for an account using the link below."),
)
