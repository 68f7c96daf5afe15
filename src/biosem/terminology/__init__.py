"""Source adapters: read a terminology or corpus release into biosem intermediates."""
