from django.apps import AppConfig


class AgreementsConfig(AppConfig):
    name = "turnbased.agreements"
    verbose_name = "Agreements at the table"

    def ready(self) -> None:
        from turnbased.agreements import reactions  # noqa: F401  (the table term, the lapses)
        from turnbased.agreements.selectors import word_proposal_event
        from turnbased.events.models import EventKind
        from turnbased.events.wording import register_wording

        register_wording([EventKind.PROPOSAL_MADE, EventKind.PROPOSAL_DECIDED], word_proposal_event)
